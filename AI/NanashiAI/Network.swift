import CNetwork
import CSearchMemory
import Foundation
import NanashiCore

/// The evaluation network laid out for the search (NNUE): the board read as tuples, every 2x2
/// window of squares in one of its 4^4 states, each window state an input with a row of hidden
/// weights; 16-lane vectors of 16-bit integers.
///
/// Accumulators hold both perspectives' hidden layers before activation: x's half (x's pieces
/// are "own"), then o's, each `Network.lanes` vectors. A move changes only the windows around
/// the squares it changed, so it updates the accumulator with a few vector additions per window
/// instead of summing all 36 windows again. A pass changes nothing.
///
/// The engine plays with the network compiled into the program (`trained`) unless it is given
/// another the trainer wrote (`init(file:)`): UAI's `EvalFile`, `--network` of `uai`, `bench` and
/// `datagen`.
public final class Network: @unchecked Sendable {
    typealias Lanes = SIMD16<Int16>

    /// The hidden layer's size for each perspective: the compiled search's shape (and the C
    /// kernels', `AI/CNetwork`).
    static let hidden = 256
    /// Vectors in one perspective's hidden layer.
    static let lanes = hidden / Lanes.scalarCount
    /// Vectors in an accumulator: both perspectives' hidden layers.
    static let accumulatorLanes = 2 * lanes

    /// The compiled-in network.
    public static let trained = Network(NetworkWeights.trained, name: NetworkWeights.trainedFileName)

    /// The network's file name: `network-<hash>.nnue` for the compiled-in one.
    public let name: String

    /// One row of `hidden` 8-bit weights per input: window times 256, plus the window's state.
    /// Half the bytes of 16-bit rows, which the updates read at almost every node.
    private let rows: UnsafeMutablePointer<Int8>
    private let biases: UnsafeMutablePointer<Lanes>
    /// Each bucket's output weights: the side to move's, then the other side's.
    private let outputs: UnsafeMutablePointer<Lanes>
    private let outputBiases: UnsafeMutablePointer<Int>
    /// For each square, the windows that hold it (`Tuples.windowsOfSquare`).
    private let windowsOfSquare: UnsafeMutablePointer<UInt64>
    /// The update and the score over this network's buffers, for the search's hot path.
    let kernels: Kernels

    /// A network the trainer wrote (`tools/nnue/train.py`), read from the file at `path`.
    ///
    /// - Throws: `NetworkFormatError` for a file that cannot be read, is not a network, or has
    ///   another hidden size than the search is built for.
    public convenience init(file path: String) throws(NetworkFormatError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NetworkFormatError("cannot read network file '\(path)'")
        }
        let weights: NetworkWeights
        do {
            weights = try NetworkWeights(bytes: Array(data))
        } catch {
            throw NetworkFormatError("network file '\(path)': \(error)")
        }
        guard weights.hidden == Self.hidden else {
            throw NetworkFormatError(
                "network file '\(path)': \(weights.hidden) hidden, and this engine is built for \(Self.hidden)"
            )
        }
        self.init(weights, name: String(path.split(separator: "/").last ?? Substring(path)))
    }

    init(_ weights: NetworkWeights, name: String = "") {
        self.name = name
        precondition(
            weights.hidden == Self.hidden,
            "a network of \(weights.hidden) hidden; the search is built for \(Self.hidden)")
        func buffer(_ values: [Int16]) -> UnsafeMutablePointer<Lanes> {
            let buffer = UnsafeMutablePointer<Lanes>.allocate(capacity: values.count / Lanes.scalarCount)
            values.withUnsafeBytes {
                UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
            }
            return buffer
        }
        // The rows (2.4 MB) on huge pages: each update reads rows far apart, which would otherwise
        // miss the address-translation cache.
        guard let memory = nanashi_allocate_table(weights.hiddenWeights.count) else {
            fatalError("no memory for the network's rows")
        }
        rows = memory.bindMemory(to: Int8.self, capacity: weights.hiddenWeights.count)
        rows.update(from: weights.hiddenWeights, count: weights.hiddenWeights.count)
        biases = buffer(weights.hiddenBiases)
        outputs = buffer(weights.outputWeights)
        outputBiases = .allocate(capacity: weights.buckets)
        outputBiases.initialize(from: weights.outputBiases.map(Int.init), count: weights.buckets)
        windowsOfSquare = .allocate(capacity: 49)
        windowsOfSquare.initialize(from: Tuples.windowsOfSquare, count: 49)
        kernels = Kernels(
            rows: UnsafePointer(rows),
            windowsOfSquare: windowsOfSquare,
            outputs: UnsafeRawPointer(outputs).assumingMemoryBound(to: Int16.self),
            outputBiases: outputBiases, buckets: weights.buckets, activationOne: Int16(weights.activationOne),
            scale: weights.scale,
            divisor: weights.activationOne * weights.outputOne)
    }

    deinit {
        nanashi_free_table(rows)
        for buffer in [biases, outputs] { buffer.deallocate() }
        outputBiases.deallocate()
        windowsOfSquare.deallocate()
    }

    /// Fills `accumulator` from nothing for the board where x, o and the blockers are these.
    func refresh(_ accumulator: UnsafeMutablePointer<Lanes>, x: UInt64, o: UInt64, blockers: UInt64) {
        let xHalf = accumulator
        let oHalf = accumulator + Self.lanes
        xHalf.update(from: biases, count: Self.lanes)
        oHalf.update(from: biases, count: Self.lanes)
        for window in 0..<Tuples.windows {
            let (xState, oState) = Tuples.states(window: window, x: x, o: o, blockers: blockers)
            let xRow = UnsafeRawPointer(rows + (window &* Tuples.states &+ xState) &* Self.hidden)
            let oRow = UnsafeRawPointer(rows + (window &* Tuples.states &+ oState) &* Self.hidden)
            for lane in 0..<Self.lanes {
                let offset = lane &* Lanes.scalarCount
                xHalf[lane] &+= Lanes(
                    truncatingIfNeeded: xRow.loadUnaligned(fromByteOffset: offset, as: SIMD16<Int8>.self))
                oHalf[lane] &+= Lanes(
                    truncatingIfNeeded: oRow.loadUnaligned(fromByteOffset: offset, as: SIMD16<Int8>.self))
            }
        }
    }

    /// Writes to `child` the accumulator of the board after a move, from `parent`, the
    /// accumulator before: x's and o's pieces before and after it (the blockers never change).
    @inline(__always)
    func update(
        from parent: UnsafePointer<Lanes>, to child: UnsafeMutablePointer<Lanes>,
        xBefore: UInt64, oBefore: UInt64, xAfter: UInt64, oAfter: UInt64, blockers: UInt64
    ) {
        kernels.update(
            from: parent, to: child, xBefore: xBefore, oBefore: oBefore, xAfter: xAfter, oAfter: oAfter,
            blockers: blockers)
    }

    /// The network's score for `side` to move, in centi-pieces, from the accumulator's board,
    /// which has `pieces` pieces (both sides').
    @inline(__always)
    func score(_ accumulator: UnsafePointer<Lanes>, side: Side, pieces: Int) -> Int {
        kernels.score(accumulator, side: side, pieces: pieces)
    }

    /// The network's score of `position` for its side to move, refreshed from nothing (outside
    /// the search's hot path).
    func score(of position: Position) -> Int {
        let accumulator = UnsafeMutablePointer<Lanes>.allocate(capacity: Self.accumulatorLanes)
        defer { accumulator.deallocate() }
        refresh(
            accumulator, x: position.pieces(of: .x).rawValue, o: position.pieces(of: .o).rawValue,
            blockers: position.blockers.rawValue)
        let pieces = position.pieces(of: .x).count + position.pieces(of: .o).count
        return score(accumulator, side: position.sideToMove, pieces: pieces)
    }
}

extension Network {
    /// The update and the score of a network as a value: its buffers and constants, so that the
    /// search, which calls them at almost every node, pays no reference counting. Valid while its
    /// network lives (the trained one lives as long as the program).
    struct Kernels {
        let rows: UnsafePointer<Int8>
        let windowsOfSquare: UnsafePointer<UInt64>
        let outputs: UnsafePointer<Int16>
        let outputBiases: UnsafePointer<Int>
        let buckets: Int
        let activationOne: Int16
        let scale: Int
        let divisor: Int

        /// As `Network.update`.
        @inline(__always)
        func update(
            from parent: UnsafePointer<Lanes>, to child: UnsafeMutablePointer<Lanes>,
            xBefore: UInt64, oBefore: UInt64, xAfter: UInt64, oAfter: UInt64, blockers: UInt64
        ) {
            nanashi_update(
                UnsafeMutableRawPointer(child).assumingMemoryBound(to: Int16.self),
                UnsafeRawPointer(parent).assumingMemoryBound(to: Int16.self), rows, windowsOfSquare, xBefore,
                oBefore, xAfter, oAfter, blockers)
        }

        /// As `Network.score(_:side:pieces:)`.
        @inline(__always)
        func score(_ accumulator: UnsafePointer<Lanes>, side: Side, pieces: Int) -> Int {
            let values = UnsafeRawPointer(accumulator).assumingMemoryBound(to: Int16.self)
            let own = values + (side == .x ? 0 : Network.hidden)
            let other = values + (side == .x ? Network.hidden : 0)
            let bucket = NetworkWeights.bucket(pieces: pieces, of: buckets)
            let weights = outputs + bucket &* 2 &* Network.hidden
            let total = nanashi_screlu_output(own, other, weights, activationOne, Int32(Network.hidden))
            return (Int(total) / Int(activationOne) + outputBiases[bucket]) * scale / divisor
        }
    }
}

import NanashiCore

/// The evaluation network laid out for the search: 16-lane vectors of 16-bit integers, and for
/// each square the change a move makes to a side's hidden layer there (a piece placed on an empty
/// square, a piece captured), so that a move updates the hidden layer with a few vector additions
/// instead of summing every input again (NNUE).
///
/// Accumulators hold both sides' hidden layers before clipping: x's half, then o's, each
/// `Network.lanes` vectors. A side's half sees its own pieces, the other side's and the empty
/// squares, so a pass changes neither.
final class Network: @unchecked Sendable {
    typealias Lanes = SIMD16<Int16>

    /// The hidden layer's size for each side: the compiled search's shape.
    static let hidden = 128
    /// Vectors in one side's hidden layer.
    static let lanes = hidden / Lanes.scalarCount
    /// Vectors in an accumulator: both sides' hidden layers.
    static let accumulatorLanes = 2 * lanes

    /// The compiled-in network.
    static let trained = Network(NetworkWeights.trained)

    /// One row of `lanes` per input: own pieces, other pieces, empty squares.
    private let rows: UnsafeMutablePointer<Lanes>
    private let biases: UnsafeMutablePointer<Lanes>
    /// Per square: own piece minus other's piece (a capture, from the capturer's side).
    private let captureRows: UnsafeMutablePointer<Lanes>
    /// Per square: own piece minus empty.
    private let ownFillRows: UnsafeMutablePointer<Lanes>
    /// Per square: other's piece minus empty.
    private let otherFillRows: UnsafeMutablePointer<Lanes>
    /// The side to move's output weights, then the other side's.
    private let outputs: UnsafeMutablePointer<Lanes>
    private let outputBias: Int
    private let activationOne: Lanes
    private let scale: Int
    private let divisor: Int

    init(_ weights: NetworkWeights) {
        precondition(
            weights.hidden == Self.hidden,
            "a network of \(weights.hidden) hidden; the search is built for \(Self.hidden)")
        let lanes = Self.lanes
        func vectors(_ values: ArraySlice<Int16>) -> [Lanes] {
            stride(from: values.startIndex, to: values.endIndex, by: Lanes.scalarCount).map {
                Lanes(values[$0..<$0 + Lanes.scalarCount])
            }
        }
        let allRows = vectors(weights.hiddenWeights[...])
        func row(_ input: Int) -> ArraySlice<Lanes> { allRows[input * lanes..<(input + 1) * lanes] }
        func differences(_ first: Int, _ second: Int) -> [Lanes] {
            (0..<49).flatMap { square in zip(row(first + square), row(second + square)).map { $0 &- $1 } }
        }
        rows = .allocate(capacity: allRows.count)
        rows.initialize(from: allRows, count: allRows.count)
        biases = Self.buffer(vectors(weights.hiddenBiases[...]))
        captureRows = Self.buffer(differences(0, 49))
        ownFillRows = Self.buffer(differences(0, 98))
        otherFillRows = Self.buffer(differences(49, 98))
        outputs = Self.buffer(vectors(weights.outputWeights[...]))
        outputBias = Int(weights.outputBias)
        activationOne = Lanes(repeating: Int16(weights.activationOne))
        scale = weights.scale
        divisor = weights.activationOne * weights.outputOne
    }

    deinit {
        for buffer in [rows, biases, captureRows, ownFillRows, otherFillRows, outputs] { buffer.deallocate() }
    }

    private static func buffer(_ values: [Lanes]) -> UnsafeMutablePointer<Lanes> {
        let buffer = UnsafeMutablePointer<Lanes>.allocate(capacity: values.count)
        buffer.initialize(from: values, count: values.count)
        return buffer
    }

    /// Fills `accumulator` from nothing for the board where x, o and the empty squares are these.
    func refresh(_ accumulator: UnsafeMutablePointer<Lanes>, x: UInt64, o: UInt64, open: UInt64) {
        for (half, own, other) in [(0, x, o), (Self.lanes, o, x)] {
            let target = accumulator + half
            target.update(from: biases, count: Self.lanes)
            for (offset, squares) in [(0, own), (49, other), (98, open)] {
                var remaining = squares
                while remaining != 0 {
                    let source = rows + (offset + remaining.trailingZeroBitCount) * Self.lanes
                    for lane in 0..<Self.lanes { target[lane] &+= source[lane] }
                    remaining &= remaining &- 1
                }
            }
        }
    }

    /// Writes to `child` the accumulator of the board after `mover` played, from `parent`, the
    /// accumulator before: `ownBefore` and `otherBefore` are the mover's and the other side's
    /// pieces before the move, `ownAfter` and `otherAfter` after it.
    @inline(__always)
    func update(
        from parent: UnsafePointer<Lanes>, to child: UnsafeMutablePointer<Lanes>, mover: Side,
        ownBefore: UInt64, otherBefore: UInt64, ownAfter: UInt64, otherAfter: UInt64
    ) {
        let captured = otherBefore & ~otherAfter
        let destination = (ownAfter & ~ownBefore & ~captured).trailingZeroBitCount
        let moverHalf = mover == .x ? 0 : Self.lanes
        let otherHalf = Self.lanes - moverHalf
        let ownFill = ownFillRows + destination * Self.lanes
        let otherFill = otherFillRows + destination * Self.lanes
        for lane in 0..<Self.lanes {
            child[moverHalf + lane] = parent[moverHalf + lane] &+ ownFill[lane]
            child[otherHalf + lane] = parent[otherHalf + lane] &+ otherFill[lane]
        }
        let origin = ownBefore & ~ownAfter
        if origin != 0 {
            let ownEmptied = ownFillRows + origin.trailingZeroBitCount * Self.lanes
            let otherEmptied = otherFillRows + origin.trailingZeroBitCount * Self.lanes
            for lane in 0..<Self.lanes {
                child[moverHalf + lane] &-= ownEmptied[lane]
                child[otherHalf + lane] &-= otherEmptied[lane]
            }
        }
        var remaining = captured
        while remaining != 0 {
            let capture = captureRows + remaining.trailingZeroBitCount * Self.lanes
            for lane in 0..<Self.lanes {
                child[moverHalf + lane] &+= capture[lane]
                child[otherHalf + lane] &-= capture[lane]
            }
            remaining &= remaining &- 1
        }
    }

    /// The network's score for `side` to move, in centi-pieces, from the accumulator's board.
    @inline(__always)
    func score(_ accumulator: UnsafePointer<Lanes>, side: Side) -> Int {
        let first = accumulator + (side == .x ? 0 : Self.lanes)
        let second = accumulator + (side == .x ? Self.lanes : 0)
        var sum = SIMD8<Int32>()
        for lane in 0..<Self.lanes {
            // Activations are at most 1.0 (activationOne, 255) and output weights at most 127:
            // each product fits in 16 bits.
            let ownProduct =
                first[lane].clamped(lowerBound: .zero, upperBound: activationOne) &* outputs[lane]
            let otherProduct =
                second[lane].clamped(lowerBound: .zero, upperBound: activationOne)
                &* outputs[Self.lanes + lane]
            sum &+= SIMD8<Int32>(truncatingIfNeeded: ownProduct.lowHalf)
            sum &+= SIMD8<Int32>(truncatingIfNeeded: ownProduct.highHalf)
            sum &+= SIMD8<Int32>(truncatingIfNeeded: otherProduct.lowHalf)
            sum &+= SIMD8<Int32>(truncatingIfNeeded: otherProduct.highHalf)
        }
        return (Int(sum.wrappedSum()) + outputBias) * scale / divisor
    }

    /// The network's score of `position` for its side to move, refreshed from nothing (outside
    /// the search's hot path).
    func score(of position: Position) -> Int {
        let accumulator = UnsafeMutablePointer<Lanes>.allocate(capacity: Self.accumulatorLanes)
        defer { accumulator.deallocate() }
        refresh(
            accumulator, x: position.pieces(of: .x).rawValue, o: position.pieces(of: .o).rawValue,
            open: position.empty.rawValue)
        return score(accumulator, side: position.sideToMove)
    }
}

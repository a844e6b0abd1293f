import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import NanashiServer

@Suite struct EventLoopTaskExecutorTests {
    /// Stands for the storage: its `store` returns once another thread has answered.
    private actor Game {
        let loop: any EventLoop

        init(loop: any EventLoop) {
            self.loop = loop
        }

        /// Whether the actor ran on `loop` before and after the answer came from another thread.
        func store() async -> [Bool] {
            let before = loop.inEventLoop
            await withCheckedContinuation { (stored: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { stored.resume() }
            }
            return [before, loop.inEventLoop]
        }
    }

    /// A task that prefers a loop's executor runs on that loop, and so does an actor it calls;
    /// resumed from another thread, each comes back to that loop.
    @Test func aTaskAndTheActorsItCallsRunOnTheLoopAndComeBackToIt() async {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let executor = EventLoopTaskExecutor.on(loop)
        #expect(EventLoopTaskExecutor.on(loop) === executor)
        let game = Game(loop: loop)
        let seen = await Task(executorPreference: executor) {
            var seen = [loop.inEventLoop]
            for _ in 0..<3 {
                seen += await game.store()
                seen.append(loop.inEventLoop)
            }
            return seen
        }.value
        #expect(seen == Array(repeating: true, count: 10))
    }
}

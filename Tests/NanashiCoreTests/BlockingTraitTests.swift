import Foundation
import NanashiTestSupport
import Testing

// The shared test support's trait, checked here.

@Test(.blocking) func aBlockingTestRunsOnALaneOfItsOwn() {
    #expect(BlockingTrait.isOnALane)
}

@Test(.blocking) func anAsyncBlockingTestRunsOnALaneOfItsOwnToo() async {
    #expect(onALane())
}

@Test func anOrdinaryTestRunsWhereSwiftConcurrencyPutsIt() {
    #expect(!BlockingTrait.isOnALane)
}

private func onALane() -> Bool { BlockingTrait.isOnALane }

@Suite(.blocking) struct BlockingSuiteTests {
    @Test(arguments: [1, 2])
    func everyCaseOfABlockingSuiteRunsOnALane(number: Int) {
        #expect(BlockingTrait.isOnALane)
    }
}

import NanashiRuntime
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

/// What `count` takes in a row give.
private func takes(_ count: Int, from bucket: inout TokenBucket, at now: ContinuousClock.Instant) -> [Bool] {
    var results: [Bool] = []
    for _ in 0..<count { results.append(bucket.take(now: now)) }
    return results
}

@Suite struct TokenBucketTests {
    @Test func aBucketRefillsWithTimeUpToItsCapacity() {
        let clock = TestClock()
        var bucket = TokenBucket(capacity: 3, perSecond: 0.5, now: clock.now)
        #expect(takes(4, from: &bucket, at: clock.now) == [true, true, true, false])
        clock.advance(by: .seconds(1))
        #expect(takes(1, from: &bucket, at: clock.now) == [false])
        clock.advance(by: .seconds(1))
        #expect(takes(1, from: &bucket, at: clock.now) == [true])
        clock.advance(by: .seconds(3600))
        #expect(takes(4, from: &bucket, at: clock.now) == [true, true, true, false])
    }

    @Test func spendingPastTheBottomDigsADebt() {
        let clock = TestClock()
        var bucket = TokenBucket(capacity: 2, perSecond: 1, now: clock.now)
        var left: [Double] = []
        for _ in 0..<5 { left.append(bucket.spend(now: clock.now)) }
        #expect(left == [1, 0, -1, -2, -3])
        clock.advance(by: .seconds(4))
        let after = bucket.spend(now: clock.now)
        #expect(after == 0)
        bucket.giveBack()
        #expect(bucket.tokens == 1)
    }

    @Test func keyedBucketsAreApartAndForgottenOnceFullAgain() {
        let clock = TestClock()
        let buckets = KeyedBuckets<String>(capacity: 2, perSecond: 0.1, clock: clock)
        #expect([buckets.take("a"), buckets.take("a"), buckets.take("a")] == [true, true, false])
        #expect(buckets.take("b"))
        #expect(!buckets.isFull("a") && buckets.isFull("c"))
        // Two windows (20 s each: an empty bucket's time to fill) untouched: forgotten, and full.
        for key in 0..<1000 { _ = buckets.take("key \(key)") }
        #expect(buckets.count == 1002)
        clock.advance(by: .seconds(20))
        _ = buckets.take("x")
        clock.advance(by: .seconds(20))
        _ = buckets.take("y")
        #expect(buckets.count == 2)
        #expect(buckets.isFull("a") && buckets.take("a") && buckets.take("a") && !buckets.take("a"))
    }

    @Test func aFloodOfKeysNeverHoldsMoreThanTwoGenerations() {
        let clock = TestClock()
        let buckets = KeyedBuckets<Int>(capacity: 1, perSecond: 0.001, maximumKeys: 100, clock: clock)
        for key in 0..<10_000 { #expect(buckets.take(key)) }
        #expect(buckets.count <= 200)
    }
}

import NanashiCore

extension LoadTestSettings {
    /// What is wrong with these settings, named by `nanashi loadtest`'s options; `nil` when
    /// nothing is.
    public var problem: String? {
        guard duration >= .seconds(1) else {
            return "bad --duration \(duration.components.seconds): use 1 second or more"
        }
        guard thinkMilliseconds >= 0 else {
            return "bad --think \(thinkMilliseconds): use 0 or more milliseconds"
        }
        guard control.isWithinLimits else {
            return
                "bad time control \(control.initial)+\(control.increment): initial \(TimeControl.initialRange.lowerBound) to \(TimeControl.initialRange.upperBound) s, increment 0 to \(TimeControl.maximumIncrement) s"
        }
        guard (2...20_000).contains(clients) else { return "bad --clients \(clients): use 2 to 20000" }
        guard games >= 1 else { return "bad --games \(games): use 1 or more" }
        let (resign, drop) = (policy.resignChance, policy.dropChance)
        guard (0...1).contains(resign), (0...1).contains(drop), resign + drop <= 1 else {
            return "bad chances: each 0 to 1, together at most 1"
        }
        return nil
    }
}

extension QueryTestSettings {
    /// What is wrong with these settings, named by `nanashi loadtest --queries`'s options; `nil`
    /// when nothing is.
    public var problem: String? {
        guard queries >= 1 else { return "bad --queries \(queries): use 1 or more" }
        guard (1...1000).contains(connections) else { return "bad --clients \(connections): use 1 to 1000" }
        return nil
    }
}

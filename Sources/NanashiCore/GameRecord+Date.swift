extension GameRecord {
    /// A day as PGN's `Date` tag writes it, `2026.11.22`: the UTC day of a moment given in
    /// seconds since 1970 (the proleptic Gregorian calendar, without Foundation).
    public static func pgnDate(secondsSince1970 seconds: Int64) -> String {
        // Days since 1970-01-01, rounded down, then the civil date of a day count (Hinnant).
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".\(two(month)).\(two(day))"
    }
}

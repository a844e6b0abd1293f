import Foundation

/// A Glicko-2 rating on the familiar scale: rating, rating deviation (RD) and volatility.
package struct Rating: Hashable, Sendable {
    package var rating: Double
    package var deviation: Double
    package var volatility: Double

    package init(rating: Double, deviation: Double, volatility: Double) {
        self.rating = rating
        self.deviation = deviation
        self.volatility = volatility
    }

    /// Where every new player starts: 1500, RD 350, volatility 0.06.
    package static let initial = Rating(rating: 1500, deviation: 350, volatility: 0.06)

    /// Uncertain ratings (RD of 110 or more) are shown as provisional.
    package var isProvisional: Bool { deviation >= 110 }
}

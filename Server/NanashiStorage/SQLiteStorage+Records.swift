import GRDB

// The value types of Rows.swift as GRDB records: the SQLite backend's own mapping.

extension PlayerRow: FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "player"

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension TokenRow: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "token"
}

extension GameRow: FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "game"

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension MoveRow: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "move"
}

extension RatingChangeRow: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "rating_change"
}

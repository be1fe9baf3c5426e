import Foundation

/// When a photo was taken, as the catalogue keeps it (see migration 0013): the
/// camera's clock as the file writes it, read as if UTC, and its offset from
/// UTC in minutes when the file says.
public struct TakenTime: Sendable, Equatable {
    public var clock: Date
    public var offsetMinutes: Int?

    public init(clock: Date, offsetMinutes: Int?) {
        self.clock = clock
        self.offsetMinutes = offsetMinutes
    }
}

extension Statement {
    /// The capture time in `clock` and `offset`; nil when the image has none. A clock outside
    /// the years 1 to 9999 or an offset beyond a day is refused as any strange value is.
    func takenTime(_ clock: Int32, _ offset: Int32, row: @autoclosure () -> String) throws -> TakenTime? {
        guard !isNull(clock) else { return nil }
        let minutes = isNull(offset) ? nil : int(offset)
        if let minutes, !(-1440...1440).contains(minutes) {
            throw CatalogueError.strangeValue(path: path, detail: "\(row()): a capture time's offset of \(minutes) minutes, "
                                                + "where it is at most a day")
        }
        return TakenTime(clock: try date(clock, row: row()), offsetMinutes: minutes)
    }
}

extension PostgresRow {
    /// As `Statement.takenTime`: the capture time in the columns `clock` and `offset`, or nil.
    func takenTime(_ clock: String, _ offset: String, row: @autoclosure () -> String) throws -> TakenTime? {
        guard !isNull(clock) else { return nil }
        let minutes = optionalInt64(offset).map(Int.init)
        if let minutes, !(-1440...1440).contains(minutes) {
            throw CatalogueError.strangeValue(path: result.location, detail: "\(row()): a capture time's offset of \(minutes) "
                                                + "minutes, where it is at most a day")
        }
        return TakenTime(clock: try date(clock, row: row()), offsetMinutes: minutes)
    }
}

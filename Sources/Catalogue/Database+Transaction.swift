import CSQLite

extension Database {
    public enum TransactionKind: String, Sendable {
        /// Takes the write lock at the first write; for read-only snapshots.
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so a writer never fails half-way on a busy lock.
        case immediate = "IMMEDIATE"
        /// Also keeps readers in rollback-journal mode out (a new file before WAL is on).
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in one transaction: commits when it returns, rolls back
    /// and rethrows the first error when it throws. Not nestable.
    public func transaction<T>(_ kind: TransactionKind = .immediate,
                               _ body: () throws -> T) throws -> T {
        precondition(isAutocommit, "transactions do not nest")
        if kind != .deferred, let damage = Database.damageMet(at: path) { throw damage }
        try execute("BEGIN \(kind.rawValue)")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollbackIfNeeded()
            throw error
        }
    }

    /// Some failures (SQLITE_FULL, SQLITE_IOERR...) end the transaction inside
    /// SQLite already; a ROLLBACK then would fail and hide the first error.
    private func rollbackIfNeeded() {
        guard !isAutocommit else { return }
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }
}

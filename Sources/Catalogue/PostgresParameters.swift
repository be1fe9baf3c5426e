/// A statement's parameters as PostgreSQL's protocol takes them, gathered as the SQL is
/// written: `add` puts a value's bytes at the end of one buffer and gives the `$n` to write
/// where the value goes. For the multi-row statements of a run's batches (`PostgresBatch`),
/// thousands of values each, where naming every value and numbering the names again
/// (`PostgresArguments`, `PostgresNumberedSQL`) cost the client as much as the server's work.
struct PostgresParameters {
    private(set) var types: [UInt32] = []
    private(set) var formats: [Int32] = []
    private(set) var lengths: [Int32] = []
    /// Where each value's bytes start in `bytes`; nil for NULL.
    private var offsets: [Int?] = []
    /// The values' bytes one after another, after one byte that is none of them: every value,
    /// an empty one too, has an address in the buffer as it is, so it is never copied to add one.
    private var bytes: [UInt8] = [0]

    var count: Int { types.count }

    /// Adds `value` (nil: NULL) as the next parameter; its place in the SQL, `$n`.
    mutating func add(_ value: (any PostgresBindable)?) -> String {
        if let value = value?.postgresValue {
            types.append(value.type)
            formats.append(value.format)
            lengths.append(Int32(value.bytes.count))
            offsets.append(bytes.count)
            bytes += value.bytes
        } else {
            types.append(0)
            formats.append(0)
            lengths.append(0)
            offsets.append(nil)
        }
        return "$" + String(types.count)
    }

    /// Pointers to each parameter's bytes (nil for NULL), valid inside `body`.
    func withPointers<T>(_ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        bytes.withUnsafeBufferPointer { all in
            let base = UnsafeRawPointer(all.baseAddress!).assumingMemoryBound(to: CChar.self)
            return body(offsets.map { $0.map { base + $0 } })
        }
    }
}

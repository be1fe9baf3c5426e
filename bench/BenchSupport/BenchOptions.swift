import Foundation

/// The `--key value` options of the benchmark tools. Wrong input ends the
/// tool with a one-line message naming it, as the tools are run by make rules.
public struct BenchOptions {
    public let tool: String
    public private(set) var values: [String: String] = [:]

    public init(_ arguments: ArraySlice<String>, tool: String) {
        self.tool = tool
        var iterator = arguments.makeIterator()
        while let key = iterator.next() {
            guard key.hasPrefix("--"), let value = iterator.next() else { benchFail(tool, "bad argument \(key)") }
            values[String(key.dropFirst(2))] = value
        }
    }

    public func string(_ key: String) -> String {
        guard let value = values[key] else { benchFail(tool, "--\(key) is required") }
        return value
    }

    /// A count, where `1_000_000` may be written with underscores.
    public func int(_ key: String, default fallback: Int) -> Int {
        guard let text = values[key] else { return fallback }
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")) else { benchFail(tool, "--\(key) needs a number") }
        return value
    }
}

/// Ends a benchmark tool with `tool: message` on stderr and exit status 64.
public func benchFail(_ tool: String, _ message: String) -> Never {
    FileHandle.standardError.write(Data("\(tool): \(message)\n".utf8))
    exit(64)
}

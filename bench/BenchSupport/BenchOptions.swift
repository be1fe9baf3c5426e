import Foundation

/// The `--key value` options of the benchmark tools. Wrong input ends the
/// tool with a one-line message naming it, as the tools are run by make rules.
public struct BenchOptions {
    public let tool: String
    public private(set) var values: [String: String] = [:]
    /// Arguments that are not options (such as folders), in order.
    public private(set) var positionals: [String] = []

    /// A tool that takes no positional arguments refuses any as a bad argument.
    public init(_ arguments: ArraySlice<String>, tool: String, allowsPositionals: Bool = false) {
        self.tool = tool
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if !argument.hasPrefix("--") {
                guard allowsPositionals else { benchFail(tool, "bad argument \(argument)") }
                positionals.append(argument)
                continue
            }
            guard let value = iterator.next() else { benchFail(tool, "\(argument) needs a value") }
            values[String(argument.dropFirst(2))] = value
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

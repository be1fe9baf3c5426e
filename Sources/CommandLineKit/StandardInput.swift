import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The standard input read whole, for a command that takes a list on it (`label LABEL -`).
/// Foundation's `readDataToEndOfFile` stops the process when the read fails (a `try!` inside):
/// a closed stdin (`<&-`) or a folder given as stdin (`< photos`) crashed the command with a
/// backtrace. Here a failed read is one line saying why, and the command changes nothing.
public enum StandardInput {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func readAll() throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read the standard input: \(String(cString: strerror(errno)))")
            }
            data.append(contentsOf: buffer[..<count])
        }
    }
}

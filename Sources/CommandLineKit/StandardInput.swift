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

    /// The most read: a list of a few million paths. An input without end (`< /dev/zero`, a
    /// `yes` piped in) was read until memory ran out, and the process stopped with a trap.
    public static let maxSize = 256 << 20

    public static func readAll(maxSize: Int = maxSize) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read the standard input: \(String(cString: strerror(errno)))")
            }
            guard data.count + count <= maxSize else {
                throw Failure(description: "cannot read the standard input: it holds more than \(maxSize >> 20) MiB "
                              + "(give a longer list in parts)")
            }
            data.append(contentsOf: buffer[..<count])
        }
    }
}

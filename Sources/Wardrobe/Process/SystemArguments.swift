import Files
import Glibc

/// The process's command-line arguments, decoded as file names are
/// (`PathName`): a path argument whose bytes are not UTF-8 still names its
/// file (`CommandLine.arguments` would put U+FFFD in their place).
public enum SystemArguments {
    /// Every argument after the program's name.
    public static func all() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return PathName.decode(UnsafeBufferPointer(start: argument, count: strlen(argument))
                .map { UInt8(bitPattern: $0) })
        }
    }
}

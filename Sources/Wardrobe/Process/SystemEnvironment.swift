import Files
import Glibc

/// The process's environment, its values decoded as file names are (`PathName`), as
/// `SystemArguments` decodes the arguments: `ProcessInfo`'s puts U+FFFD in place of a byte
/// that is not UTF-8, so `WARDROBE_MODEL=/models/\xff.aimodel` named no file ("cannot read:
/// No such file or directory", the name shown with U+FFFD) and `WARDROBE_DB` a catalogue
/// other than the one named, made under that other name by `import`.
public enum SystemEnvironment {
    /// Every variable; of a name set twice, the first, as `getenv` reads it.
    public static func all() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = PathName.decode(bytes[..<equals])
                if variables[name] == nil { variables[name] = PathName.decode(bytes[(equals + 1)...]) }
            }
            entry += 1
        }
        return variables
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's modification time as one number, as the catalogue keeps it beside the size to
/// tell an unchanged file: nanoseconds since 1970. A file's clock can say anything (`touch -d
/// 2500-01-01`, a camera's year 0); 64-bit nanoseconds reach only from 1677 to 2262, so
/// outside those years the count wraps around instead of stopping the program. The number
/// is only ever compared with itself, never shown, and two times 584 years apart are the
/// only ones that can meet.
public enum FileTime {
    public static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}

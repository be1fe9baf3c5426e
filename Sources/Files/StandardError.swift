import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard error, kept apart from what C libraries write there. The HEVC and
/// AV1 decoders under libheif (libde265, dav1d) print their own lines for damaged data
/// (`Error parsing OBU data`, `SPS error: ...`), which broke "every error is one line that
/// starts with `error:` and names the file", and with several workers were tied to no file;
/// libheif's own error, which the command reports with the file's name, says the same.
///
/// `descriptor` is a copy of file descriptor 2 made before anything is silenced, which
/// `Console` writes to; `silencingLibraries` points descriptor 2 at /dev/null while a library
/// call runs (counted, so calls on several threads overlap safely) and back after.
public enum StandardError {
    /// Where diagnostics go: standard error as the process was started with it.
    public static let descriptor: Int32 = {
        let copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        return copy >= 0 ? copy : STDERR_FILENO
    }()

    private static let silenced = Mutex<(count: Int, saved: Int32)>((0, -1))

    /// Runs `body` with whatever C code writes to descriptor 2 thrown away.
    public static func silencingLibraries<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        _ = descriptor   // copied before descriptor 2 is ever redirected
        silenced.withLock { state in
            if state.count == 0 {
                let empty = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if empty >= 0 {
                    state.saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
                    dup2(empty, STDERR_FILENO)
                    close(empty)
                }
            }
            state.count += 1
        }
        defer {
            silenced.withLock { state in
                state.count -= 1
                if state.count == 0, state.saved >= 0 {
                    dup2(state.saved, STDERR_FILENO)
                    close(state.saved)
                    state.saved = -1
                }
            }
        }
        return try body()
    }
}

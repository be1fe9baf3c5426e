import Foundation

/// A throwaway PostgreSQL server for the tests that run against both engines:
/// a cluster made by `initdb` in a temporary folder, listening only on a Unix
/// socket in that folder, started once per test process and stopped at its
/// exit. PostgreSQL refuses to run as root, and CI runs as root, so there it
/// runs as the `postgres` system user (`runuser`), which owns the folder.
/// Each test gets a database of its own (`newDatabase()`).
public final class TestPostgres: Sendable {
    /// The folder of the server's programs, nil when PostgreSQL is not installed
    /// (`make deps` installs it): then, and only then, those tests are skipped.
    public static let programs: String? = {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.reversed()
            .map { "/usr/lib/postgresql/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    public static var isInstalled: Bool { programs != nil }

    /// The server of this process, started at the first call. A server that is installed
    /// but will not start is an error, never a skip.
    public static func shared() throws -> TestPostgres {
        try started.get()
    }

    private static let started: Result<TestPostgres, Error> = Result { try TestPostgres() }

    /// The folder holding the cluster and the socket.
    public let folder: String
    private let bin: String
    private let counter = Counter()

    private init() throws {
        guard let bin = TestPostgres.programs else { throw Failure("PostgreSQL is not installed (make deps installs it)") }
        self.bin = bin
        let template = NSTemporaryDirectory() + "wardrobe-pg-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { throw Failure("cannot make a folder for the server") }
        folder = String(cString: bytes)
        // Owned by the user the server runs as, and readable to this process's user (root).
        if getuid() == 0 {
            guard chown(folder, TestPostgres.postgresUser.uid, TestPostgres.postgresUser.gid) == 0 else {
                throw Failure("cannot give \(folder) to the postgres user")
            }
        }
        chmod(folder, 0o755)
        try run("initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8",
                           "--no-instructions"])
        try run("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "start", "-o",
                           "-k \(folder) -c listen_addresses='' -c fsync=off -c max_connections=300"])
        TestPostgres.stopAtExit(bin: bin, folder: folder)
    }

    /// A new, empty database on the server, as a `postgresql://` URL (the socket's folder as host).
    public func newDatabase(_ name: String = "catalogue") throws -> String {
        let database = "\(name.lowercased().filter { $0.isLetter || $0.isNumber })_\(getpid())_\(counter.next())"
        try run("createdb", ["-h", folder, "-U", "postgres", database], asServer: false)
        return url(database)
    }

    /// The URL of `database` on this server.
    public func url(_ database: String) -> String {
        "postgresql://postgres@" + folder.replacingOccurrences(of: "/", with: "%2F") + "/" + database
    }

    /// A login role that must give `password` (scram-sha-256) where every other connects on
    /// trust: the server's first `pg_hba.conf` line names it, and the server reloads it.
    public func role(_ name: String, password: String) throws {
        try psql("postgres", "CREATE ROLE \(name) LOGIN SUPERUSER PASSWORD '\(password)'")
        let rules = folder + "/data/pg_hba.conf"
        let existing = try String(contentsOfFile: rules, encoding: .utf8)
        try ("local all \(name) scram-sha-256\n" + existing).write(toFile: rules, atomically: false, encoding: .utf8)
        try psql("postgres", "SELECT pg_reload_conf()")
    }

    /// Runs SQL as the superuser in `database` through psql, for what a test sets up around a
    /// catalogue (another program's tables, a server going away); its output.
    @discardableResult
    public func psql(_ database: String, _ sql: String) throws -> String {
        try run("psql", ["-h", folder, "-U", "postgres", "-d", database, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                         "-c", sql], asServer: false)
    }

    /// Runs one of the server's programs, as the `postgres` user when this process is root.
    /// Spawned directly, not through Foundation's Process: that one learns of a child's end
    /// from a socket the child inherits, which the server `pg_ctl start` leaves running keeps
    /// open, so it waited forever.
    @discardableResult
    private func run(_ program: String, _ arguments: [String], asServer: Bool = true) throws -> String {
        let command = asServer && getuid() == 0
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", bin + "/" + program] + arguments
            : [bin + "/" + program] + arguments
        let outputPath = folder + "/\(program)-\(counter.next()).out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try TestPostgres.spawn(command, output: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure("\(program) \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }

    /// Runs `command` with stdin from /dev/null and stdout and stderr to `output`; its exit status.
    private static func spawn(_ command: [String], output: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process's: the server outlives the spawn, and a socket of a test's
        // own child process kept by it would keep that test waiting for its end (Swift's Glibc
        // module does not offer posix_spawn_file_actions_addclosefrom_np).
        closeOnExec()
        let arguments = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let started = posix_spawn(&pid, command[0], &actions, nil, arguments, environ)
        guard started == 0 else { throw Failure("cannot start \(command[0]): \(String(cString: strerror(started)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Marks every open file of this process above stderr close-on-exec. What other children
    /// are meant to inherit is handed to them by dup2, which clears the mark on the copy.
    private static func closeOnExec() {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    private static var postgresUser: (uid: uid_t, gid: gid_t) {
        guard let entry = getpwnam("postgres") else { return (0, 0) }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// `atexit` takes a C function, which captures nothing: what it stops is kept here.
    nonisolated(unsafe) private static var running: (bin: String, folder: String)?

    private static func stopAtExit(bin: String, folder: String) {
        running = (bin, folder)
        atexit {
            guard let (bin, folder) = TestPostgres.running else { return }
            let pgctl = [bin + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"]
            _ = try? TestPostgres.spawn(getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + pgctl : pgctl, output: "/dev/null")
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = "test PostgreSQL server: " + description }
    }

    private final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}

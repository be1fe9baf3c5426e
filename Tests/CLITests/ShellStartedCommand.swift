import Foundation
import Testing

/// `wardrobe` started as a shell starts a command: no signal blocked, each at its default
/// action (Foundation's Process starts one with them blocked, which would hide what a signal
/// does to a command that does not unblock them), except those in `ignoring`, which it is
/// started with ignored, as a script's background job is (SIGINT) or one under `nohup`
/// (SIGHUP). A real shell does the ignoring (`trap '' SIGNAL`, then `exec`), since
/// posix_spawn can only reset a signal to its default, not ignore it.
final class ShellStartedCommand {
    /// How a command ended: its exit status, or the signal that killed it.
    struct Ending: Equatable, CustomStringConvertible {
        var status: Int32?
        var signal: Int32?
        var stderr: String

        /// With what the command said on stderr either way: a command killed by a signal (an
        /// abort) has often said why first.
        var description: String { (status.map { "exit status \($0)" } ?? "killed by signal \(signal ?? 0)") + ": \(stderr)" }
    }

    let pid: pid_t
    /// The command's standard output, when `readOutput` asked for it (else /dev/null).
    let stdout: FileHandle?
    private let stderr: FileHandle
    private var ended = false

    init(_ arguments: [String], ignoring: [Int32] = [], readOutput: Bool = false) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var errPipe: [Int32] = [0, 0], outPipe: [Int32] = [-1, -1]
        try #require(pipe(&errPipe) == 0)
        if readOutput { try #require(pipe(&outPipe) == 0) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if readOutput {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, outPipe[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, errPipe[0])
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(NSTemporaryDirectory())"]
        let command = ignoring.isEmpty
            ? [WardrobeProcess.executable.path] + arguments
            : ["/bin/sh", "-c", "trap '' \(ignoring.map(String.init).joined(separator: " ")); exec \"$0\" \"$@\"",
               WardrobeProcess.executable.path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        try #require(posix_spawn(&child, command[0], &actions, &attributes, argv, envp) == 0)
        pid = child
        close(errPipe[1])
        stderr = FileHandle(fileDescriptor: errPipe[0], closeOnDealloc: true)
        if readOutput {
            close(outPipe[1])
            stdout = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true)
        } else {
            stdout = nil
        }
    }

    deinit {
        if !ended {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    func send(_ signal: Int32) { kill(pid, signal) }

    /// Reads the command's stderr to its end and waits for it to end.
    func wait() -> Ending {
        let said = stderr.readDataToEndOfFile()
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        ended = true
        // The wait status: the low 7 bits the killing signal, else the exit status above them.
        let killedBy = status & 0x7f
        return Ending(status: killedBy == 0 ? (status >> 8) & 0xff : nil, signal: killedBy == 0 ? nil : killedBy,
                      stderr: String(decoding: said, as: UTF8.self))
    }
}

import Foundation
import Testing

/// `wardrobe label LABEL -` reads the images from stdin. A stdin that cannot be read (closed
/// with `<&-`, or a folder: `< photos`) crashed it with a Foundation backtrace. It is one
/// error line, status 1, and nothing is labelled.
@Suite struct UnreadableStdinTests {
    /// An input without end (`< /dev/zero`) was read until memory ran out: a trap ("unable to
    /// allocate memory", signal 4) or, without a limit, the machine's memory. Reading stops at
    /// `StandardInput.maxSize`.
    @Test(arguments: [("<&-", "Bad file descriptor"), ("< \"$1\"", "Is a directory"),
                      ("< /dev/zero", "it holds more than 256 MiB (give a longer list in parts)")])
    func anUnreadableStdinIsOneErrorLine(redirect: String, reason: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try folder.catalogueOfTheSample().db

        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Memory capped, so that an input read without end stops the command, not the machine.
        shell.arguments = ["-c", "ulimit -v 4194304; exec \"$0\" label coat - --db \"$2\" \(redirect)",
                           WardrobeProcess.executable.path, folder.root.path, db]
        shell.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let err = Pipe()
        shell.standardError = err
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationReason == .exit && shell.terminationStatus == 1, "\(said)")
        #expect(said == "error: cannot read the standard input: \(reason)\n")
        let history = try WardrobeProcess.run(["history", "1", "--db", db, "--json"])
        #expect(!history.stdout.contains("\"coat\"") && !history.stdout.contains("Coat"), "nothing labelled: \(history.stdout)")
    }
}

import Catalogue
import Foundation
import Testing

/// An import under a low limit of open files (`ulimit -n`). A photo that could not be opened
/// because the process had as many files open as it may was kept as a failing file
/// ("unreadable: Too many open files"), so every later import passed it over as a known
/// failure while it stayed unchanged: under `ulimit -n 13` one import kept 2,031 of 2,046
/// photos so, and the next, with the limit raised, imported none of them. And a catalogue
/// that could not be opened so said "SQLite error 14: unable to open database file".
@Suite struct OpenFileLimitTests {
    /// `wardrobe arguments` under `ulimit -n limit`, started by a shell.
    private static func run(_ arguments: [String], openFiles limit: Int) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", WardrobeProcess.executable.path] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }

    /// At every limit from one too low to open the catalogue to one that is plenty, the import
    /// either imports every photo or stops with one line that says which limit, records no
    /// photo as failing, and leaves the rest to the same command run with room.
    @Test func aLowLimitStopsTheImportAndRecordsNoPhotoAsFailing() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let photos = 40
        try folder.writePhotos(photos, width: 96, height: 128, firstSeed: 7100)
        for limit in 8...20 {
            let db = folder.path("limit-\(limit).sqlite")
            let limited = try Self.run(["import", "--db", db, "--jobs", "2", "--quiet", folder.path("photos")],
                                       openFiles: limit)
            let lines = limited.stderr.split(separator: "\n")
            #expect(!limited.stderr.contains("SQLite error") && !limited.stderr.contains("unreadable"),
                    "ulimit -n \(limit): \(limited.stderr)")
            if limited.status != 0 {
                #expect(limited.status == 1, "ulimit -n \(limit): \(limited.stderr)")
                #expect(lines.count == 1 && lines[0].contains("as many files open as its limit allows (\(limit))"),
                        "ulimit -n \(limit): one line naming the limit: \(limited.stderr)")
            }
            if FileManager.default.fileExists(atPath: db) {
                #expect(try Catalogue(path: db, mode: .readOnly).failingFiles().isEmpty,
                        "ulimit -n \(limit): no photo is kept as failing")
            }
            let again = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")])
            #expect(again.status == 0, "ulimit -n \(limit), then without: \(again.stderr)")
            #expect(try Catalogue(path: db, mode: .readOnly).stats().images == photos,
                    "ulimit -n \(limit), then without: every photo imported")
        }
    }
}

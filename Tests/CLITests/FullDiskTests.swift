import Foundation
import Imaging
import Testing

/// An import whose catalogue's disk fills up part-way: the workers are
/// stopped and joined, the run is closed, and the tool exits 1 with one
/// error line. (Workers used to outlive the main thread and crash in
/// libcrypto's clean-up, in about half of the runs.) Needs a small tmpfs,
/// so root; skipped otherwise.
@Suite(.serialized) struct FullDiskTests {
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullDiskEndsTheImportWithOneErrorLine() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let encoder = JPEGEncoder(quality: 90)
        for index in 0..<150 {
            try folder.write(try encoder.encode(PhotoFolder.photo(width: 480, height: 640, seed: 500 + index)),
                             to: "photos/\(index).jpg")
        }
        let disk = folder.path("small-disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk]) == 0 else {
            print("FullDiskTests: cannot mount a tmpfs here; skipped")
            return
        }
        defer { _ = run("/bin/umount", [disk]) }

        // Several times: the crash it guards against came in about half of the runs.
        for attempt in 0..<4 {
            let db = disk + "/catalogue-\(attempt).sqlite"
            let result = try WardrobeProcess.run(["import", "--db", db, "--jobs", "4", "--quiet", folder.path("photos")])
            #expect(result.status == 1, "attempt \(attempt): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("SQLite error 13"), "attempt \(attempt): \(result.stderr)")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
    }

    private func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

import Foundation
import Testing

/// A photo that could not be read (no read permission) and is then made readable with
/// `chmod`, which leaves its size and time as they were. Kept failing with them, it was a
/// known failure to every later import, passed over unread until the file was touched.
@Suite struct UnreadablePhotoTests {
    @Test func aPhotoMadeReadableIsImportedByTheNextImport() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(2, width: 120, height: 160, firstSeed: 7)
        let photos = folder.path("photos"), locked = folder.path("photos/1.jpg"), db = folder.path("c.sqlite")
        chmod(folder.root.path, 0o777)
        chmod(photos, 0o755)
        chmod(locked, 0o000)
        // Root reads whatever the permissions say: the imports run as nobody then.
        let script = """
            if [ "$(id -u)" = 0 ]; then set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$0" "$@"; else set -- "$0" "$@"; fi
            exec "$@"
            """
        let first = try WardrobeProcess.shell(script, ["import", "-q", "--db", db, photos])
        #expect(first.status == 2, "\(first.stderr)")
        #expect(first.stderr.contains("1.jpg: unreadable: Permission denied"), "\(first.stderr)")

        chmod(locked, 0o644)
        let second = try WardrobeProcess.shell(script, ["import", "--json", "--db", db, photos])
        #expect(second.status == 0, "\(second.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect(summary["new_images"] as? Int == 1, "\(second.stdout)")
        #expect(summary["known_failures"] as? Int == 0, "\(second.stdout)")
        let failures = try WardrobeProcess.run(["failures", "--db", db])
        #expect(failures.status == 0 && (failures.stdout + failures.stderr).contains("no failing files"), "\(failures.stdout)")
    }
}

import Catalogue
import Foundation
import Imaging
import Testing

/// When each photo was taken, end to end through the built binary: kept at import from
/// EXIF, shown by `show`, `list` and `export`, chosen by `--taken-after` and
/// `--taken-before`, and read for images imported before it was kept by `capture-times`
/// from their files still there.
@Suite struct CaptureTimeCommandTests {
    struct Listed: Decodable {
        var id: Int64
        var path: String?
        var taken_at: String?
    }

    /// Three photos taken at known times (one without an offset) and one whose file does not say.
    static func folder() throws -> PhotoFolder {
        let folder = try PhotoFolder()
        let encoder = JPEGEncoder(quality: 85)
        let times: [(String, String?)?] = [("2024:05:01 14:30:00", "+02:00"), ("2024:05:02 09:00:00", nil),
                                           ("2023:12:24 18:00:00", "-05:00"), nil]
        for (index, time) in times.enumerated() {
            var jpeg = try encoder.encode(PhotoFolder.photo(width: 96, height: 128, seed: 700 + index))
            if let (date, offset) = time {
                jpeg = Exif.inserting(tiff: Exif.tiffBlock(dateTimeOriginal: date, offsetTimeOriginal: offset), intoJPEG: jpeg)
            }
            try folder.write(jpeg, to: "photos/\(index).jpg")
        }
        return folder
    }

    func listed(_ db: String, _ arguments: [String] = []) throws -> [Listed] {
        let result = try WardrobeProcess.run(["list", "--db", db, "--json", "--sort", "id"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([Listed].self, from: Data(result.stdout.utf8))
    }

    @Test func importKeepsWhenEachPhotoWasTakenAndListFiltersByIt() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let rows = try listed(db)
        let taken = Dictionary(uniqueKeysWithValues: rows.map { (URL(fileURLWithPath: $0.path ?? "").lastPathComponent, $0.taken_at) })
        let expected: [String: String?] = ["0.jpg": "2024-05-01T14:30:00+02:00", "1.jpg": "2024-05-02T09:00:00",
                                           "2.jpg": "2023-12-24T18:00:00-05:00", "3.jpg": nil]
        #expect(taken == expected)
        // By the camera's clock: the first of May is 0.jpg, May onwards 0 and 1, before May 2.jpg alone;
        // a photo that does not say is in no range.
        func names(_ arguments: [String]) throws -> [String] {
            try listed(db, arguments).map { URL(fileURLWithPath: $0.path ?? "").lastPathComponent }.sorted()
        }
        #expect(try names(["--taken-after", "2024-05-01", "--taken-before", "2024-05-02"]) == ["0.jpg"])
        #expect(try names(["--taken-after", "2024-05-01"]) == ["0.jpg", "1.jpg"])
        #expect(try names(["--taken-before", "2024-05-01"]) == ["2.jpg"])
        #expect(try names(["--taken-after", "2024-05-02T09:00", "--folder", folder.path("photos")]) == ["1.jpg"])
        #expect(try WardrobeProcess.run(["list", "--db", db, "--taken-after", "2024-05-02", "--taken-before", "2024-05-01"]).status == 64)
        let sorted = try WardrobeProcess.run(["list", "--db", db, "--json", "--sort", "taken"])
        let order = try JSONDecoder().decode([Listed].self, from: Data(sorted.stdout.utf8)).map(\.taken_at)
        #expect(order == ["2024-05-02T09:00:00", "2024-05-01T14:30:00+02:00", "2023-12-24T18:00:00-05:00", nil])
        // show, and export's CSV, carry it too.
        let first = try #require(rows.first { $0.path?.hasSuffix("0.jpg") == true })
        let show = try WardrobeProcess.run(["show", "--db", db, "--no-preview", String(first.id)])
        #expect(show.stdout.contains("taken") && show.stdout.contains("2024-05-01 14:30:00+02:00"), "\(show.stdout)")
        let csv = try WardrobeProcess.run(["export", "--db", db, "--format", "csv"]).stdout.split(separator: "\n")
        #expect(csv.first?.contains(",path_state,taken_at,") == true)
        #expect(csv.contains { $0.contains(",present,2024-05-01T14:30:00+02:00,") })
    }

    /// A catalogue from before capture times were kept: `capture-times` reads them from the files
    /// still there with their SHA-256, once; a file gone or changed is not read, and tried again.
    @Test func captureTimesReadsOldImagesFromTheirFiles() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        try Catalogue(path: db).database.execute("UPDATE images SET taken_at = NULL, taken_offset = NULL, capture_read = 0")
        #expect(try listed(db).allSatisfy { $0.taken_at == nil })
        // 1.jpg changed since import (another photo's bytes), 2.jpg gone.
        try folder.write(try JPEGEncoder(quality: 85).encode(PhotoFolder.photo(width: 96, height: 128, seed: 9)), to: "photos/1.jpg")
        try FileManager.default.removeItem(atPath: folder.path("photos/2.jpg"))
        struct Report: Decodable, Equatable { var read: Int; var taken: Int; var no_file: Int }
        func run() throws -> Report {
            let result = try WardrobeProcess.run(["capture-times", "--db", db, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        }
        #expect(try run() == Report(read: 2, taken: 1, no_file: 2))
        let rows = try listed(db)
        #expect(rows.compactMap(\.taken_at) == ["2024-05-01T14:30:00+02:00"])
        // Only what is left is read again; with 2.jpg back, it is read.
        #expect(try run() == Report(read: 0, taken: 0, no_file: 2))
        let photos = try Self.folder()
        defer { photos.remove() }
        try FileManager.default.copyItem(atPath: photos.path("photos/2.jpg"), toPath: folder.path("photos/2.jpg"))
        #expect(try run() == Report(read: 1, taken: 1, no_file: 1))
        #expect(try listed(db).compactMap(\.taken_at).sorted() == ["2023-12-24T18:00:00-05:00", "2024-05-01T14:30:00+02:00"])
    }
}

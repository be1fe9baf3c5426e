import Catalogue
import Foundation
import Imaging
import Testing

/// `duplicates` end to end through the built binary, on photos made here: a photo saved again
/// resized, recompressed, brightened and cropped is one group with its source, an unrelated
/// photo of a garment of the same colour is in none; a dismissed group does not come back;
/// `fingerprints` fills in images imported before fingerprints were kept, from their
/// thumbnails alone, as import took them.
@Suite struct DuplicatesCommandTests {
    struct Member: Decodable { var image: Int64; var path: String?; var distance: Int }
    struct Group: Decodable { var images: [Member] }
    struct Report: Decodable { var fingerprinted: Int; var unfingerprinted: Int; var groups: [Group] }

    static func duplicates(_ db: String) throws -> Report {
        let result = try WardrobeProcess.run(["duplicates", "--db", db, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
    }

    static func names(_ group: Group) -> [String] {
        group.images.map { URL(fileURLWithPath: $0.path ?? "").lastPathComponent }.sorted()
    }

    @Test func theSamePhotoSavedAgainIsOneGroupAndAnUnrelatedOneIsInNone() throws {
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try Self.duplicates(db)
        #expect(report.fingerprinted == 5 && report.unfingerprinted == 0)
        #expect(report.groups.map(Self.names) == [["shirt-bright.jpg", "shirt-cropped.jpg", "shirt-small.jpg", "shirt.jpg"]],
                "\(report.groups)")
        let text = try WardrobeProcess.run(["duplicates", "--db", db])
        #expect(text.status == 0 && text.stdout.hasPrefix("group 1: 4 images") && !text.stdout.contains("trousers"),
                "\(text.stdout)")
    }

    @Test func aDismissedGroupDoesNotComeBack() throws {
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let group = try #require(try Self.duplicates(db).groups.first)
        let ids = group.images.map { String($0.image) }
        let lonely = try WardrobeProcess.run(["duplicates", "--db", db, "--dismiss", ids[0]])
        #expect(lonely.status == 1 && lonely.stderr.contains("two images or more"), "\(lonely.stderr)")
        let unknown = try WardrobeProcess.run(["duplicates", "--db", db, "--dismiss", ids[0], "999"])
        #expect(unknown.status != 0 && unknown.stderr.contains("999"), "\(unknown.stderr)")
        #expect(try Self.duplicates(db).groups.count == 1, "a refused dismissal changes nothing")
        let dismissed = try WardrobeProcess.run(["duplicates", "--db", db, "--dismiss"] + ids)
        #expect(dismissed.status == 0, "\(dismissed.stderr)")
        #expect(try Self.duplicates(db).groups.isEmpty)
        // Importing the same files again, and a run of fingerprints, bring nothing back.
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        #expect(try WardrobeProcess.run(["fingerprints", "--db", db]).status == 0)
        #expect(try Self.duplicates(db).groups.isEmpty)
    }

    /// Images imported before fingerprints were kept are left out, with a hint, until
    /// `fingerprints` takes theirs from the thumbnails; then they group as imported ones do.
    @Test func imagesWithoutFingerprintsAreComparedOnceFingerprintsTakesThem() throws {
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let atImport = try Self.duplicates(db).groups.map(Self.names)
        try Catalogue(path: db).database.execute("UPDATE images SET fingerprint = NULL, garment_fingerprint = NULL")
        let before = try Self.duplicates(db)
        #expect(before.groups.isEmpty && before.unfingerprinted == 5 && before.fingerprinted == 0)
        let hint = try WardrobeProcess.run(["duplicates", "--db", db])
        #expect(hint.status == 0 && hint.stderr.contains("run 'wardrobe fingerprints'"), "\(hint.stderr)")
        #expect(try WardrobeProcess.run(["fingerprints", "--db", db]).status == 0)
        #expect(try Self.duplicates(db).groups.map(Self.names) == atImport)
    }

    /// Images imported before the garment's crops were kept are compared by the fingerprints
    /// they have (the copies still group), and the hint says some are missing, not all.
    @Test func imagesMissingSomeFingerprintsAreComparedByThoseTheyHave() throws {
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        try Catalogue(path: db).database.execute("UPDATE images SET garment_crop_fingerprints = NULL")
        let partial = try Self.duplicates(db)
        #expect(partial.fingerprinted == 5 && partial.unfingerprinted == 5)
        #expect(partial.groups.map(Self.names) == [["shirt-bright.jpg", "shirt-cropped.jpg", "shirt-small.jpg", "shirt.jpg"]])
        let hint = try WardrobeProcess.run(["duplicates", "--db", db])
        #expect(hint.status == 0 && hint.stderr.contains("lack some or all of their fingerprints (compared by those they have)"),
                "\(hint.stderr)")
    }
}

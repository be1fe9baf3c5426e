import Catalogue
import Foundation
import Imaging
import Testing

/// Perceptual fingerprints through the built binary: import takes them from each stored
/// thumbnail, and `fingerprints` takes those of images imported before they were kept from
/// their thumbnails alone (the photos gone), the same bits, and only what is left next time;
/// and the crops, or the garment's crops, of images imported before those were kept.
@Suite struct FingerprintsCommandTests {
    @Test func fingerprintsFillsInOldImagesFromTheirThumbnails() throws {
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        func stored() throws -> [[Int64?]] {
            try Catalogue(path: db).database.rows(
                "SELECT fingerprint, garment_fingerprint, crop_fingerprints, garment_crop_fingerprints FROM images ORDER BY id"
            ) { row in
                // Each set of crops' 80 bytes as a sum, which tells them apart here.
                func crops(_ column: Int32) -> Int64? {
                    row.isNull(column) ? nil : row.blob(column).count == 80 ? row.blob(column).reduce(0) { $0 &* 31 &+ Int64($1) } : -1
                }
                return [row.isNull(0) ? nil : row.int64(0), row.isNull(1) ? nil : row.int64(1), crops(2), crops(3)]
            }
        }
        let atImport = try stored()
        #expect(atImport.count == 5 && atImport.allSatisfy { $0.allSatisfy { $0 != nil && $0 != -1 } }, "\(atImport)")
        // The shirt's copies may share their fingerprint; the trousers' is another.
        #expect(Set(atImport.map { $0[0] }).count > 1, "\(atImport)")
        try Catalogue(path: db).database.execute("UPDATE images SET fingerprint = NULL, garment_fingerprint = NULL")
        try FileManager.default.removeItem(atPath: folder.path("photos"))
        struct Taken: Decodable, Equatable { var taken: Int; var unreadable: Int }
        func run() throws -> Taken {
            let result = try WardrobeProcess.run(["fingerprints", "--db", db, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONDecoder().decode(Taken.self, from: Data(result.stdout.utf8))
        }
        #expect(try run() == Taken(taken: 5, unreadable: 0))
        #expect(try stored() == atImport)
        #expect(try run() == Taken(taken: 0, unreadable: 0))
        // Images imported after the whole and garment fingerprints were kept, before the crops'.
        try Catalogue(path: db).database.execute("UPDATE images SET crop_fingerprints = NULL WHERE id > 2")
        #expect(try run() == Taken(taken: 3, unreadable: 0))
        #expect(try stored() == atImport)
        // Imported before the garment's crops were kept: only an image with a garment has any to take.
        try Catalogue(path: db).database.execute("UPDATE images SET garment_crop_fingerprints = NULL WHERE id <= 3")
        try Catalogue(path: db).database.execute("UPDATE images SET garment_fingerprint = NULL WHERE id = 3")
        #expect(try run() == Taken(taken: 2, unreadable: 0))
        #expect(try run() == Taken(taken: 0, unreadable: 0))
        let text = try WardrobeProcess.run(["fingerprints", "--db", db])
        #expect(text.status == 0 && text.stdout.contains("taken") && text.stdout.contains("0"), "\(text.stdout)")
    }
}

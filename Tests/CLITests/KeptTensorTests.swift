import Catalogue
import CatalogueFixtures
import Foundation
import Imaging
import Testing

/// `import` keeps the tensor it classified each image from, and `reclassify` under the same
/// recipe reads it instead of preparing the thumbnail again. A kept tensor must be the one the
/// stored thumbnail prepares to, and reclassify must take it only when the recipe could have
/// made it: one with a value that is not a number or is out of 0...1 is prepared again from
/// the thumbnail and replaced, a missing one is prepared and kept. On both engines.
@Suite struct KeptTensorTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/photos").path

    /// Whether each case runs on a PostgreSQL server (where one is installed) or an SQLite file.
    static let onServer: [Bool] = TestPostgres.isInstalled ? [false, true] : [false]

    @Test(arguments: onServer)
    func reclassifyReadsTheKeptTensorsAndPreparesAgainTheOnesNoRecipeMakes(onServer: Bool) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let location = onServer ? try TestPostgres.shared().newDatabase("kept") : folder.path("catalogue.sqlite")
        let imported = try WardrobeProcess.run(["import", "--jobs", "1", "--quiet", Self.photos, "--db", location])
        #expect(imported.status == 0, "\(imported.stderr)")

        let photo = try PrepRecipes.named("photo")
        let recipe = Recipe(name: photo.name, version: photo.version)
        let store = try CatalogueStorage.open(location, access: .readWrite)
        let images = (1...12).map { ImageID(Int64($0)) }
        var prepared: [ImageID: [Float]] = [:], importLogits: [ImageID: [Float]] = [:]
        for image in images {
            let thumbnail = try #require(try store.thumbnail(of: image), "image \(image)")
            prepared[image] = try ImageProcessor().prepare(thumbnail: thumbnail, recipe: photo).values
            let kept = try #require(try store.preparedTensor(of: image, recipe: recipe), "image \(image) keeps a tensor")
            #expect(Self.same(kept, prepared[image]), "image \(image): kept as prepared")
            importLogits[image] = try #require(try store.history(of: image).first?.classification.logits)
        }
        // Read for a take at once, as reclassify reads them: what image by image gives.
        let together = try store.preparedTensors(of: images + [ImageID(999)], recipe: recipe)
        #expect(Set(together.keys) == Set(images) && images.allSatisfy { Self.same(together[$0], prepared[$0]) })
        let thumbnails = try store.thumbnails(of: images + [ImageID(999)])
        #expect(Set(thumbnails.keys) == Set(images))
        #expect(try images.allSatisfy { try thumbnails[$0] == store.thumbnail(of: $0) })

        // Image 1 keeps image 2's tensor (one the recipe could have made, so taken as it is);
        // 3 one with a value that is not a number, 4 one with a value of 2; 5 keeps none.
        var notANumber = try #require(prepared[images[2]]), tooBright = try #require(prepared[images[3]])
        notANumber[100] = .nan
        tooBright[200] = 2
        try setTensor(of: images[0], to: try #require(prepared[images[1]]), recipe: recipe, location: location, onServer: onServer)
        try setTensor(of: images[2], to: notANumber, recipe: recipe, location: location, onServer: onServer)
        try setTensor(of: images[3], to: tooBright, recipe: recipe, location: location, onServer: onServer)
        try setTensor(of: images[4], to: nil, recipe: recipe, location: location, onServer: onServer)

        let again = try WardrobeProcess.run(["reclassify", "--jobs", "1", "--db", location])
        #expect(again.status == 0, "\(again.stderr)")
        let reread = try CatalogueStorage.open(location, access: .readOnly)
        for image in images {
            let logits = try #require(try reread.history(of: image).last?.classification.logits)
            let expected = image == images[0] ? importLogits[images[1]] : importLogits[image]
            #expect(logits.map(\.bitPattern) == expected?.map(\.bitPattern), "image \(image): reclassified from its tensor")
            let kept = try reread.preparedTensor(of: image, recipe: recipe)
            let keptAfter = image == images[0] ? prepared[images[1]] : prepared[image]
            #expect(Self.same(kept, keptAfter), "image \(image): the tensor kept after")
        }

        // Another recipe keeps its own tensors beside them; forget takes an image's away.
        let fashion = try PrepRecipes.named("fashion-mnist")
        #expect(try WardrobeProcess.run(["reclassify", "--prep", "fashion-mnist", "--db", location]).status == 0)
        #expect(try WardrobeProcess.run(["forget", "--yes", "6", "--db", location]).status == 0)
        let last = try CatalogueStorage.open(location, access: .readOnly)
        for image in images {
            let thumbnail = try last.thumbnail(of: image)
            let kept = try last.preparedTensor(of: image, recipe: Recipe(name: fashion.name, version: fashion.version))
            if image == images[5] {
                let photoTensor = try last.preparedTensor(of: image, recipe: recipe)
                #expect(thumbnail == nil && kept == nil && photoTensor == nil)
            } else {
                let made = try ImageProcessor().prepare(thumbnail: try #require(thumbnail), recipe: fashion).values
                #expect(Self.same(kept, made), "image \(image): the fashion-mnist tensor")
            }
        }
        let check = try WardrobeProcess.run(["check", "--db", location])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// Bit for bit (a failure names the image, not 784 values).
    static func same(_ one: [Float]?, _ other: [Float]?) -> Bool {
        one?.map(\.bitPattern) == other?.map(\.bitPattern)
    }

    /// Sets (or, with nil, removes) the tensor kept for `image`, as a tool other than wardrobe would.
    private func setTensor(of image: ImageID, to values: [Float]?, recipe: Recipe, location: String, onServer: Bool) throws {
        let hex = values.map { values in values.map { value in
            withUnsafeBytes(of: value.bitPattern.littleEndian) { $0.map { String(format: "%02x", $0) }.joined() }
        }.joined() }
        let key = "image_id = \(image.rawValue) AND recipe_name = '\(recipe.name)' AND recipe_version = \(recipe.version)"
        let sql = hex.map { "UPDATE prepared_tensors SET tensor = \(onServer ? "'\\x\($0)'::bytea" : "X'\($0)'") WHERE \(key)" }
            ?? "DELETE FROM prepared_tensors WHERE \(key)"
        if onServer {
            try TestPostgres.shared().psql(String(location.split(separator: "/").last!), sql)
        } else {
            try Catalogue(path: location).database.execute(sql)
        }
    }
}

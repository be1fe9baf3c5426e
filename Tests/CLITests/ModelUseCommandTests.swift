import Catalogue
import Foundation
import Imaging
import Testing

/// `wardrobe model use` and `model list` end to end: a catalogue adopts a
/// model, which then classifies for every command without `--model`, even
/// once its file is gone; `--model` still wins; each model's agreement with
/// the person's labels is what its own classifications say.
@Suite(.serialized) struct ModelUseCommandTests {
    struct Listing: Decodable {
        struct Entry: Decodable {
            var id: Int64
            var sha256: String
            var in_use: Bool
            var last_adopted: String?
            var labelled_images: Int
            var agreeing: Int
        }
        var models: [Entry]
        var in_use: String
        var in_use_source: String
    }

    struct Listed: Decodable {
        var id: Int64
        var label: String
        var label_source: String
        var model_label: String
    }

    static let root = FileManager.default.currentDirectoryPath
    let folder: PhotoFolder
    var db: String { folder.path("catalogue.sqlite") }

    init() throws {
        folder = try PhotoFolder()
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> WardrobeProcess.Result {
        try WardrobeProcess.run(arguments, environment: environment)
    }

    func listing() throws -> Listing {
        let result = try run(["model", "list", "--db", db, "--json"])
        #expect(result.status == 0, "model list: \(result.stderr)")
        return try JSONDecoder().decode(Listing.self, from: Data(result.stdout.utf8))
    }

    /// The SHA-256 of the model of the image's latest classification.
    func latestModelHash(of image: Int64) throws -> String? {
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let history = try catalogue.history(of: ImageID(image))
        return try history.last.flatMap { try catalogue.model($0.classification.model)?.sha256.hex }
    }

    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aCatalogueUsesItsAdoptedModelUntilAnotherIsChosenAndListsAgreement() throws {
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: Self.root + "/Fixtures/photos", toPath: folder.path("photos"))
        // Another model, quickly trained, adopted from a file that then goes away.
        let adopted = folder.path("chosen.aimodel")
        let train = try run(["model", "train", "--limit", "256", "--epochs", "1", "--seed", "5", "--out", adopted])
        #expect(train.status == 0, "\(train.stderr)")
        let bundledHash = try sha256(Self.root + "/Models/clothing.aimodel")
        let adoptedHash = try sha256(adopted)
        #expect(bundledHash != adoptedHash, "the test needs two different models")

        #expect(try run(["import", "--db", db, "--jobs", "1", folder.path("photos/pants"), folder.path("photos/shoes")]).status == 0)
        // Everything a person says about these photos: trousers and a sneaker.
        for (label, kind) in [("trouser", "pants"), ("sneaker", "shoes")] {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("photos/\(kind)"))
                .map { folder.path("photos/\(kind)/\($0)") }
            #expect(try run(["label", "--db", db, label] + files).status == 0)
        }

        let use = try run(["model", "use", "--db", db, adopted])
        #expect(use.status == 0, "\(use.stderr)")
        #expect(use.stdout.contains("now uses") && use.stdout.contains(adopted), "\(use.stdout)")
        #expect(use.stdout.contains("--model still picks another"), "\(use.stdout)")
        try FileManager.default.removeItem(atPath: adopted)

        // model info describes the model the catalogue uses, from its kept copy, and says why it is that one.
        let info = try run(["model", "info", "--db", db])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("name           chosen\n"), "\(info.stdout)")
        #expect(info.stdout.contains("(the copy kept in the catalogue) (the catalogue's model)"), "\(info.stdout)")
        let both = try run(["model", "info", "--db", db, "--model", Self.root + "/Models/clothing.aimodel", adopted])
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")

        // Without --model, import and reclassify classify with the adopted model, from the copy the catalogue kept.
        #expect(try run(["import", "--db", db, "--jobs", "1", folder.path("photos/dress")]).status == 0)
        let reclassify = try run(["reclassify", "--db", db, "--jobs", "1"])
        #expect(reclassify.status == 0, "\(reclassify.stderr)")
        for image in Int64(1)...4 { #expect(try latestModelHash(of: image) == adoptedHash, "image \(image)") }

        var models = try listing()
        #expect(models.in_use_source == "the catalogue's model")
        let chosen = try #require(models.models.first { $0.sha256 == adoptedHash })
        let bundled = try #require(models.models.first { $0.sha256 == bundledHash })
        #expect(chosen.in_use && !bundled.in_use)
        #expect(chosen.last_adopted != nil && bundled.last_adopted == nil)
        // Agreement counts the three labelled images (the dress is not labelled), each model's latest label of each.
        #expect(chosen.labelled_images == 3 && bundled.labelled_images == 3)
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        for entry in [chosen, bundled] {
            var agreeing = 0
            for image in Int64(1)...3 {
                let mine = try catalogue.history(of: ImageID(image)).last { $0.classification.model == ModelID(entry.id) }
                let person = try catalogue.personLabel(of: ImageID(image))
                if mine?.classification.label == person { agreeing += 1 }
            }
            #expect(entry.agreeing == agreeing, "model \(entry.id)")
        }

        // --model still wins for one command, and changes nothing for the next.
        #expect(try run(["reclassify", "--db", db, "--jobs", "1", "--model", Self.root + "/Models/clothing.aimodel", "1"]).status == 0)
        #expect(try latestModelHash(of: 1) == bundledHash)
        #expect(try run(["reclassify", "--db", db, "--jobs", "1", "2"]).status == 0)
        #expect(try latestModelHash(of: 2) == adoptedHash)

        // Back to the bundled model.
        let back = try run(["model", "use", "--db", db, "--bundled"])
        #expect(back.status == 0 && back.stdout.contains("now uses the bundled model"), "\(back.stdout)")
        models = try listing()
        #expect(models.in_use_source == "the bundled model")
        let bundledInfo = try run(["model", "info", "--db", db])
        #expect(bundledInfo.stdout.contains("name           clothing\n"), "\(bundledInfo.stdout)")
        #expect(bundledInfo.stdout.contains("(the bundled model)"), "\(bundledInfo.stdout)")
        #expect(models.models.first { $0.in_use }?.sha256 == bundledHash)
        let table = try run(["model", "list", "--db", db])
        #expect(table.status == 0 && table.stdout.contains("AGREEMENT"), "\(table.stdout)")
    }

    @Test func aBrokenModelIsRefusedAndNothingIsAdopted() throws {
        defer { folder.remove() }
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: folder.path("junk.aimodel")))
        let result = try run(["model", "use", "--db", db, folder.path("junk.aimodel")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("junk.aimodel"), "\(result.stderr)")
        let usage = try run(["model", "use", "--db", db])
        #expect(usage.status == 64)
    }

    /// The copy of the adopted file kept in the catalogue, changed by another program (cut short,
    /// one byte of a weight flipped, text) once the file is gone: each command that looks for the
    /// model says which adoption and that the copy is not the model's file, and `check` lists it.
    /// The copy was loaded as it was (a flipped weight classified as the adopted model would not)
    /// or refused as a "model file is truncated" with no word of the catalogue; `check` said
    /// "no damage found" and `model list` said the model in use had not classified here yet.
    @Test(arguments: ["substr(file, 1, 1000)", "substr(file, 1, 2000) || x'01' || substr(file, 2002)", "'text'"])
    func aChangedCopyOfTheAdoptedModelIsNamed(change: String) throws {
        defer { folder.remove() }
        try Data(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0))).write(to: URL(fileURLWithPath: folder.path("0.png")))
        try #require(try run(["import", "--db", db, "--quiet", folder.path("0.png")]).status == 0)
        let model = folder.path("adopted.aimodel")
        try FileManager.default.copyItem(atPath: Self.root + "/Models/clothing.aimodel", toPath: model)
        try #require(try run(["model", "use", "--db", db, model]).status == 0)
        try FileManager.default.removeItem(atPath: model)
        try Catalogue(path: db).database.executeScript("UPDATE model_adoptions SET file = \(change);")
        let before = try #require(FileManager.default.contents(atPath: db))
        for command in [["model", "list"], ["model", "list", "--json"], ["model", "info"],
                        ["classify", "--no-save", folder.path("0.png")], ["reclassify"]] {
            let result = try run(command + ["--db", db])
            #expect(result.status == 1, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.hasPrefix("error: \(db): the catalogue holds a value wardrobe never stores (model "
                                            + "adoption 1: the copy kept of clothing 1.0 is not that model's file, its "
                                            + "SHA-256 differs)"), "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        let check = try run(["check", "--db", db])
        #expect(check.status == 1 && check.stdout.contains(
            "model adoptions whose kept copy of the model file is not that model: 1 row"), "\(check.stdout)")
        #expect(FileManager.default.contents(atPath: db) == before, "nothing changed")
        // Adopting the file again puts a whole copy in use.
        try FileManager.default.copyItem(atPath: Self.root + "/Models/clothing.aimodel", toPath: model)
        #expect(try run(["model", "use", "--db", db, model]).status == 0)
        try FileManager.default.removeItem(atPath: model)
        #expect(try run(["model", "info", "--db", db]).status == 0)
    }

    func sha256(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}

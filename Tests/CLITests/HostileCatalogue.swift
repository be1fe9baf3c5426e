import Catalogue
import CatalogueFixtures
import Foundation

/// A catalogue written directly through the Catalogue library with names an attacker
/// chooses: a model name and image paths holding terminal escapes, newlines and
/// spreadsheet formulas, as a shared or downloaded catalogue might.
enum HostileCatalogue {
    static let modelName = "=cmd|' /C calc'!A0"
    static let escapes = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
    /// Image `n`'s path: escapes, a newline and a tab in the name.
    static func path(_ number: Int) -> String {
        "/photos/\(escapes)evil\nline\tcol-\(number)-@SUM(A1).jpg"
    }

    /// `count` classified images at hostile paths, by a model with a hostile name.
    static func make(at path: String, count: Int = 5, modelName: String = modelName) throws {
        let catalogue = try Catalogue(path: path)
        var model = Synthetic.model(7)
        model.name = modelName
        model.version = "\(escapes)1"
        let modelID = try catalogue.registerModel(model)
        let run = try catalogue.openRun(command: "import", model: modelID, recipe: Recipe(name: "photo", version: 1))
        let images = (0..<count).map { number -> NewImage in
            var image = Synthetic.image(number, thumbnailBytes: 0)
            image.file = SeenFile(path: self.path(number), size: 1000, modificationTimeNanoseconds: 1)
            image.format = "jpeg"
            return image
        }
        try catalogue.insertImages(images, run: run)
        try catalogue.closeRun(run, counts: RunCounts(seen: count, imported: count, classified: count))
    }
}

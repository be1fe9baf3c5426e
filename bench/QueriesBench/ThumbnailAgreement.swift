import Foundation
import Imaging
import Wardrobe

/// How labels from stored thumbnails compare with labels from the images
/// they were made from: for every image file under a folder, the recipe's
/// tensor from the working raster (what import classifies) against the
/// tensor from that raster stored as a JPEG thumbnail under each encoder
/// setting (what reclassify classifies).
enum ThumbnailAgreement {
    struct Setting: Sendable {
        var name: String
        var encode: @Sendable (Bitmap) throws -> [UInt8]

        static func jpeg(_ encoder: JPEGEncoder, _ name: String) -> Setting {
            Setting(name: name) { try encoder.encode($0) }
        }

        static let png = Setting(name: "PNG (lossless)") { try PNGEncoder().encode($0) }
    }

    static func measure(folder: String, modelPath: String, recipeName: String, settings: [Setting]) {
        let classifier: ClothingClassifier
        let recipe: any PrepRecipe
        do {
            classifier = try ClothingClassifier(modelAt: modelPath)
            recipe = try PrepRecipes.named(recipeName)
        } catch { fail("\(error)") }
        let processor = ImageProcessor()
        var files: [String] = []
        if let walker = FileManager.default.enumerator(atPath: folder) {
            for case let name as String in walker where !name.hasPrefix(".") { files.append("\(folder)/\(name)") }
        }
        // The accepted labels per folder of the real-photo set (its README), to see
        // whether thumbnails are better or worse than originals, not only different.
        let accepted: [String: Set<Int>] = ["t-shirt": [0], "pants": [1], "dress": [3], "outwear": [4], "shirt": [6],
                                            "longsleeve": [2, 6], "shoes": [5, 7, 9]]
        var scored = 0
        var correctOriginal = 0
        var correct = [Int](repeating: 0, count: settings.count)
        var compared = 0
        var same = [Int](repeating: 0, count: settings.count)
        var bytes = [Int](repeating: 0, count: settings.count)
        for file in files.sorted() {
            guard let data = try? ImageFile.read(file), let image = try? processor.load(bytes: data) else { continue }
            let original = classifier.classify(tensor: recipe.prepare(image.raster).values).labelIndex
            compared += 1
            let truth = accepted[URL(fileURLWithPath: file).deletingLastPathComponent().lastPathComponent]
            if let truth {
                scored += 1
                if truth.contains(original) { correctOriginal += 1 }
            }
            for (index, setting) in settings.enumerated() {
                guard let thumbnail = try? setting.encode(image.raster),
                      let tensor = try? processor.prepare(thumbnail: thumbnail, recipe: recipe) else { continue }
                bytes[index] += thumbnail.count
                let label = classifier.classify(tensor: tensor.values).labelIndex
                if label == original { same[index] += 1 }
                if let truth, truth.contains(label) { correct[index] += 1 }
            }
        }
        print("\(compared) images under \(folder), recipe \(recipe.identity): label from the thumbnail = label from the image")
        func percent(_ count: Int, _ total: Int) -> String {
            total > 0 ? String(format: "%.2f%% (%d/%d)", Double(count) * 100 / Double(total), count, total) : "-"
        }
        print("| classified from | same label as the image | accuracy (mapped folders) | mean thumbnail bytes |")
        print("|---|---:|---:|---:|")
        print("| the image (working raster) | - | \(percent(correctOriginal, scored)) | - |")
        for (index, setting) in settings.enumerated() {
            print("| thumbnail, \(setting.name) | \(percent(same[index], compared)) | \(percent(correct[index], scored)) | \(compared > 0 ? bytes[index] / compared : 0) |")
        }
    }
}

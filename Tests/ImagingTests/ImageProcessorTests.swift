import Foundation
import Imaging
import Testing

@Suite struct ImageProcessorTests {
    @Test func twelveMegapixelPhotoBecomesA256Thumbnail() throws {
        let jpeg = try JPEGEncoder(quality: 80).encode(TestImages.photo(width: 4000, height: 3000))
        let processor = ImageProcessor()
        let image = try processor.load(bytes: jpeg)
        #expect(image.decodeScale == ScalingFactor(numerator: 1, denominator: 8))
        let processed = try processor.process(bytes: jpeg, recipe: PrepRecipes.fashionMNIST)
        #expect(processed.width == 4000 && processed.height == 3000 && processed.format == .jpeg)
        #expect(processed.thumbnailWidth == 256 && processed.thumbnailHeight == 192)
        let thumbnail = try ImageDecoder().decode(processed.thumbnail)
        #expect(thumbnail.format == .jpeg && thumbnail.bitmap.width == 256 && thumbnail.bitmap.height == 192)
        #expect(processed.tensor.values.count == 784 && processed.tensor.values.allSatisfy { (0...1).contains($0) })
        #expect(processed.tensor.cropBox == PixelRect(x: 0, y: 0, width: 4000, height: 3000))
    }

    @Test func thumbnailsAreUprightAndTheSideIsConfigurable() throws {
        // Stored 96x64 on its side with tag 8; upright it is 64 wide and 96 tall.
        let upright = TestImages.quadrants(width: 64, height: 96)
        let jpeg = try JPEGEncoder(quality: 95, orientation: .rotated90CounterClockwise)
            .encode(upright.applying(.rotated90Clockwise))
        let processed = try ImageProcessor(thumbnailSide: 48).process(bytes: jpeg, recipe: PrepRecipes.fashionMNIST)
        #expect(processed.orientation == .rotated90CounterClockwise)
        #expect(processed.width == 64 && processed.height == 96)
        #expect(processed.thumbnailWidth == 32 && processed.thumbnailHeight == 48)
        let thumbnail = try ImageDecoder().decode(processed.thumbnail).bitmap
        #expect(TestImages.distance(thumbnail[8, 12], TestImages.quadrantColours[0]) < 40)
        #expect(TestImages.distance(thumbnail[24, 36], TestImages.quadrantColours[3]) < 40)
    }

    @Test func smallImagesAreNotEnlarged() throws {
        let png = try PNGEncoder().encode(TestImages.gradient(width: 100, height: 30))
        let processed = try ImageProcessor().process(bytes: png, recipe: PrepRecipes.fashionMNIST)
        #expect(processed.thumbnailWidth == 100 && processed.thumbnailHeight == 30)
    }

    @Test func preparingFromTheThumbnailMatchesTheImport() throws {
        let jpeg = try JPEGEncoder(quality: 90).encode(TestImages.photo(width: 1200, height: 1600))
        let processor = ImageProcessor()
        for recipe in PrepRecipes.all {
            let processed = try processor.process(bytes: jpeg, recipe: recipe)
            let again = try processor.prepare(thumbnail: processed.thumbnail, recipe: recipe)
            // JPEG loss moves the odd edge pixel of the mask; the picture stays the same.
            let differences = zip(processed.tensor.values, again.values).map { abs($0 - $1) }
            let mean = differences.reduce(0, +) / Float(differences.count)
            #expect(mean < 0.02, "\(recipe.name): mean difference \(mean)")
            #expect(differences.filter { $0 > 0.1 }.count < 20, "\(recipe.name): \(differences.filter { $0 > 0.1 }.count) values differ by > 0.1")
            let box = again.cropBox.scaled(x: 1200 / 192, y: 1600 / 256)
            let original = processed.tensor.cropBox
            #expect(abs(box.x - original.x) < 30 && abs(box.maxY - original.maxY) < 30, "\(box) vs \(original)")
        }
    }

    @Test func errorsFromFilesNameTheFile() throws {
        let path = NSTemporaryDirectory() + "imaging-empty-\(UUID().uuidString).jpg"
        try ImageFile.write([], to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try ImageProcessor().process(contentsOf: path, recipe: PrepRecipes.fashionMNIST)
        } throws: { error in
            "\(error)" == "\(path): empty file (0 bytes)"
        }
    }
}

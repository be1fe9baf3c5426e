import Foundation
import Imaging
import SeededRandom
import Testing
import Training

/// A temporary folder of real image files made by the project's own
/// encoders: Fashion-MNIST test images as PNG and JPEG, larger photos, an
/// EXIF-rotated one, duplicates and junk. Removed by `remove()`.
struct PhotoFolder {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("wardrobe-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    func path(_ name: String) -> String { root.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], to name: String) throws {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// A catalogue `c.sqlite` in this folder holding the fashion sample, made by `classify`,
    /// and the sample's path.
    func catalogueOfTheSample() throws -> (db: String, sample: String) {
        let db = path("c.sqlite")
        let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"
        let made = try WardrobeProcess.run(["classify", "--db", db, sample])
        try #require(made.status == 0, "\(made.stderr)")
        return (db, sample)
    }

    /// `count` photo-like JPEGs (see `photo`) as `folder/0.jpg`, `folder/1.jpg`..., each
    /// of its own content: image `i` is drawn from seed `firstSeed + i`.
    func writePhotos(_ count: Int, width: Int, height: Int, firstSeed: Int, quality: Int = 85,
                     to folder: String = "photos") throws {
        let encoder = JPEGEncoder(quality: quality)
        for index in 0..<count {
            try write(try encoder.encode(PhotoFolder.photo(width: width, height: height, seed: firstSeed + index)),
                      to: "\(folder)/\(index).jpg")
        }
    }

    static let testSet: FashionMNIST = try! FashionMNIST(split: .test)

    /// Test image `index` of Fashion-MNIST as a 28x28 grayscale bitmap.
    static func fashionBitmap(_ index: Int) -> Bitmap {
        Bitmap(width: 28, height: 28, channels: 1, pixels: Array(testSet.image(index)))
    }

    /// A photo-like RGB image: a light, slightly noisy background with a dark
    /// garment-shaped blob; `seed` varies it so every file has its own content.
    static func photo(width: Int, height: Int, seed: Int) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var state = UInt64(truncatingIfNeeded: seed) &* SplitMix64.gamma | 1
        let cx = width / 2, cy = height / 2, rx = width / 4, ry = height / 3
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let noise = Int(state % 16)
                let dx = Double(x - cx) / Double(rx), dy = Double(y - cy) / Double(ry)
                let inside = dx * dx + dy * dy < 1
                let base = inside ? 40 + (seed % 50) : 200 + noise
                let i = (y * width + x) * 3
                pixels[i] = UInt8(min(255, base + noise))
                pixels[i + 1] = UInt8(min(255, base))
                pixels[i + 2] = UInt8(min(255, base + (inside ? 30 : 0)))
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: pixels)
    }
}

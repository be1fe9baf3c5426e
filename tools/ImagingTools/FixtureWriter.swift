import Foundation
import Imaging
import Training

/// Regenerates Fixtures/ from the Debian Fashion-MNIST test set with the project's own encoders.
struct FixtureWriter {
    let root: String

    /// Test-set images used for the samples: index and what the data set says they are.
    static let sampleIndices = [0, 1, 2, 3, 8, 9]

    func write() throws {
        let data = try FashionMNIST(split: .test)
        let fixtures = (root as NSString).appendingPathComponent("Fixtures")
        let samples = (fixtures as NSString).appendingPathComponent("samples")
        try FileManager.default.createDirectory(atPath: samples, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: samples) {
            try FileManager.default.removeItem(atPath: (samples as NSString).appendingPathComponent(name))
        }
        func image(_ index: Int) -> Bitmap {
            Bitmap(width: FashionMNIST.side, height: FashionMNIST.side, channels: 1, pixels: Array(data.image(index)))
        }
        func name(_ index: Int) -> String {
            FashionMNIST.labels[Int(data.labels[index])].lowercased()
                .replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: " ", with: "-")
        }
        func save(_ bytes: [UInt8], _ file: String, in folder: String = samples) throws {
            try ImageFile.write(bytes, to: (folder as NSString).appendingPathComponent(file))
            print("wrote \((folder as NSString).appendingPathComponent(file))")
        }

        // The bundled sample: test image 0, as the 28x28 gray PNG the contract describes.
        try save(try PNGEncoder().encode(image(0)), "fashion-sample.png", in: fixtures)

        // PNG copies (exact), JPEG copies enlarged 4x (as a small photo would be).
        let jpeg = JPEGEncoder(quality: 92)
        for index in Self.sampleIndices.prefix(3) {
            try save(try PNGEncoder().encode(image(index)), "test-\(index)-\(name(index)).png")
        }
        for index in Self.sampleIndices.suffix(3) {
            let enlarged = enlarge(image(index), by: 4)
            try save(try jpeg.encode(enlarged), "test-\(index)-\(name(index)).jpg")
        }
        // Stored on its side with EXIF orientation 6: upright only when the tag is applied.
        let rotatedIndex = 4
        let stored = enlarge(image(rotatedIndex), by: 4).applying(.rotated90CounterClockwise)
        var rotated = jpeg
        rotated.orientation = .rotated90Clockwise
        try save(try rotated.encode(stored), "test-\(rotatedIndex)-\(name(rotatedIndex))-exif-rotated.jpg")
        // The same bytes as the first PNG under another name.
        try save(try PNGEncoder().encode(image(Self.sampleIndices[0])), "copy-of-test-\(Self.sampleIndices[0]).png")
        // Junk: text named like a photo.
        try save(Array("This is not a photo, only a text file with a .jpg name.\n".utf8), "not-a-photo.jpg")
    }

    func enlarge(_ image: Bitmap, by factor: Int) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: image.width * factor * image.height * factor)
        for y in 0..<(image.height * factor) {
            for x in 0..<(image.width * factor) {
                pixels[y * image.width * factor + x] = image.pixels[(y / factor) * image.width + x / factor]
            }
        }
        return Bitmap(width: image.width * factor, height: image.height * factor, channels: image.channels, pixels: pixels)
    }
}

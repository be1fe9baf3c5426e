import Foundation
import Imaging
import SeededRandom
import Testing

/// The DCT hash against one computed another way (the 2-D DCT-II summed whole in doubles,
/// the median of the 64 by sorting), and what it is for: a copy saved again is near, another
/// picture far.
@Suite struct ImageFingerprintTests {
    /// A smooth random picture: a few random waves, so its low frequencies are not ties.
    static func picture(seed: UInt64, width: Int, height: Int) -> [Float] {
        var random = SplitMix64(seed: seed)
        let waves = (0..<6).map { _ in (Double(random.next() % 1000) / 250, Double(random.next() % 1000) / 250,
                                      Double(random.next() % 1000) / 160) }
        return (0..<(width * height)).map { pixel in
            let x = Double(pixel % width) / Double(width), y = Double(pixel / width) / Double(height)
            let value = waves.reduce(0.0) { $0 + sin($1.0 * 6 * x + $1.1 * 6 * y + $1.2) }
            return Float(128 + 20 * value)
        }
    }

    static func referenceHash(_ square: [Float]) -> UInt64 {
        let n = ImageFingerprint.side, k = ImageFingerprint.frequencies
        var coefficients: [Double] = []
        for v in 0..<k {
            for u in 0..<k {
                var sum = 0.0
                for y in 0..<n {
                    for x in 0..<n {
                        sum += Double(square[y * n + x]) * cos(Double((2 * x + 1) * u) * .pi / Double(2 * n))
                            * cos(Double((2 * y + 1) * v) * .pi / Double(2 * n))
                    }
                }
                coefficients.append(sum)
            }
        }
        let sorted = coefficients.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        return coefficients.enumerated().reduce(UInt64(0)) { $1.element > median ? $0 | 1 << UInt64($1.offset) : $0 }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theHashIsTheDCTsSignsAboveTheMedian(seed: UInt64) {
        let square = Self.picture(seed: seed, width: 32, height: 32)
        #expect(ImageFingerprint.hash(square, width: 32, height: 32) == Self.referenceHash(square))
    }

    /// The median found by selection is the mean of the two middle values sorting gives, with
    /// ties and without, wherever they fall.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func theMiddleIsWhatSortingGives(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for count in [2, 4, 64] {
            for _ in 0..<200 {
                // A few distinct values when the seed is even, so that ties are common.
                let levels: UInt64 = seed % 2 == 0 ? 5 : 1 << 20
                var values = (0..<count).map { _ in Float(random.next() % levels) - 2 }
                let sorted = values.sorted()
                let middle = values.withUnsafeMutableBufferPointer { ImageFingerprint.middle(of: $0) }
                #expect(middle == (sorted[count / 2 - 1] + sorted[count / 2]) / 2, "\(sorted)")
            }
        }
    }

    static func photo(seed: UInt64) -> Bitmap {
        let gray = picture(seed: seed, width: 240, height: 320)
        return Bitmap(width: 240, height: 320, channels: 3,
                      pixels: gray.flatMap { value in [UInt8(value), UInt8(value * 0.9), UInt8(value * 0.7)] })
    }

    @Test func aCopySavedAgainIsNearAndAnotherPictureFar() throws {
        let photo = Self.photo(seed: 11)
        let decoder = ImageDecoder()
        let original = ImageFingerprint(measuring: try decoder.decode(try JPEGEncoder(quality: 90).encode(photo)).bitmap)
        let small = try JPEGEncoder(quality: 50).encode(photo.resized(width: 120, height: 160))
        let copy = ImageFingerprint(measuring: try decoder.decode(small).bitmap)
        #expect(ImageFingerprint.distance(original.whole, copy.whole) <= 4)
        for seed in [12, 13, 14] as [UInt64] {
            let other = ImageFingerprint(measuring: Self.photo(seed: seed))
            #expect(ImageFingerprint.distance(original.whole, other.whole) >= 16, "seed \(seed)")
        }
    }
}

/// The crops' hashes, summed with the area average folded into the cosines, against `hash`
/// of each window copied out and resampled; and what they are for: a cropped copy's whole
/// picture is near one of its source's crops where it is far from the source's whole picture.
@Suite struct CropFingerprintTests {
    @Test(arguments: [(96, 72), (72, 96), (96, 96), (61, 96)])
    func eachCropIsTheHashOfItsWindow(width: Int, height: Int) {
        let gray = ImageFingerprintTests.picture(seed: UInt64(width * height), width: width, height: height)
        let samples = gray.flatMap { [$0, $0, $0] }
        let crops = ImageFingerprint(width: width, height: height, samples: samples, mask: nil).crops
        #expect(crops.count == 10)
        for (window, crop) in zip(ImageFingerprint.CropWindow.all, crops) {
            let box = window.box(width: width, height: height)
            var inside: [Float] = []
            for y in box.y..<box.maxY { inside += gray[(y * width + box.x)..<(y * width + box.maxX)] }
            #expect(ImageFingerprint.distance(crop, ImageFingerprint.hash(inside, width: box.width, height: box.height)) == 0,
                    "\(window) on \(width)x\(height)")
        }
    }

    @Test func aCroppedCopyIsNearACropOfItsSource() throws {
        let photo = ImageFingerprintTests.photo(seed: 21)
        let source = ImageFingerprint(measuring: photo)
        let cropped = ImageFingerprint(measuring: photo.cropped(to: PixelRect(x: 17, y: 0, width: 223, height: 294)))
        let nearest = source.crops.map { ImageFingerprint.distance($0, cropped.whole) }.min()!
        #expect(nearest <= 4)
        #expect(ImageFingerprint.distance(source.whole, cropped.whole) >= nearest + 4)
    }
}

/// The garment's crops: the crop windows' hashes of the box around the garment, so that a copy
/// cropped into the garment (its box cut, the box's picture moved) is near one of them.
@Suite struct GarmentCropFingerprintTests {
    /// A picture with the garment's mask a rectangle `box` of it.
    static func fingerprint(_ gray: [Float], width: Int, height: Int, box: PixelRect) -> ImageFingerprint {
        let mask = Mask(width: width, height: height, bits: (0..<(width * height)).map { pixel in
            let x = pixel % width, y = pixel / width
            return x >= box.x && x < box.maxX && y >= box.y && y < box.maxY
        })
        return ImageFingerprint(width: width, height: height, samples: gray.flatMap { [$0, $0, $0] }, mask: mask)
    }

    @Test func eachGarmentCropIsTheHashOfItsWindowOfTheBox() {
        let (width, height) = (96, 80)
        let gray = ImageFingerprintTests.picture(seed: 31, width: width, height: height)
        let box = PixelRect(x: 20, y: 9, width: 51, height: 64)
        let fingerprint = Self.fingerprint(gray, width: width, height: height, box: box)
        var inside: [Float] = []
        for y in box.y..<box.maxY { inside += gray[(y * width + box.x)..<(y * width + box.maxX)] }
        let expected = ImageFingerprint(width: box.width, height: box.height, samples: inside.flatMap { [$0, $0, $0] }, mask: nil).crops
        #expect(fingerprint.garmentCrops == expected)
        #expect(fingerprint.garment == ImageFingerprint.hash(inside, width: box.width, height: box.height))
        let none = ImageFingerprint(width: width, height: height, samples: gray.flatMap { [$0, $0, $0] }, mask: nil)
        #expect(none.garment == nil && none.garmentCrops.isEmpty)
    }

    @Test func aCopyCroppedIntoTheGarmentIsNearACropOfItsSourcesGarment() {
        let (width, height) = (96, 96)
        let gray = ImageFingerprintTests.picture(seed: 32, width: width, height: height)
        // The garment reaches the right edge; the copy leaves off 6 columns, cutting it.
        let source = Self.fingerprint(gray, width: width, height: height, box: PixelRect(x: 10, y: 8, width: 86, height: 80))
        let kept = width - 6
        var cut: [Float] = []
        for y in 0..<height { cut += gray[(y * width)..<(y * width + kept)] }
        let copy = Self.fingerprint(cut, width: kept, height: height, box: PixelRect(x: 10, y: 8, width: 80, height: 80))
        let nearest = source.garmentCrops.map { ImageFingerprint.distance($0, copy.garment!) }.min()!
        #expect(nearest <= 4)
        #expect(ImageFingerprint.distance(source.garment!, copy.garment!) >= nearest + 4)
    }
}

import Foundation
import Imaging
import SeededRandom

/// The pair set `wardrobe duplicates` is measured on (docs/duplicates.md): every photo under
/// the given folders, copied as it is, and three variants of it, each one of four edits a
/// photo meets on its way back into a catalogue, saved as JPEG:
/// - resized to 25-75% of its size (quality 90),
/// - saved again at JPEG quality 40-90,
/// - cropped by 3-10% on one side or two (quality 90),
/// - brightened or darkened by up to 20% (quality 90; at least 5%).
/// Which three edits, and how much of each, is drawn from a hash of the photo's bytes, so a
/// set is made again the same. The files go in `photos/`, and `sources.tsv` beside it names
/// each written file's source photo: pairs of files from one source are the true duplicates,
/// every other pair a false one.
struct DuplicateSet {
    var photos: [String]
    var out: String

    enum Edit: String, CaseIterable {
        case resized, recompressed, cropped, brightened
    }

    func write() throws {
        try FileManager.default.createDirectory(atPath: "\(out)/photos", withIntermediateDirectories: true)
        var sources = "# file\tsource\tedit\n"
        var written = 0
        for (index, path) in try photoPaths().enumerated() {
            let bytes = try ImageFile.read(path)
            let source = String(format: "%05d", index)
            try Data(bytes).write(to: URL(fileURLWithPath: "\(out)/photos/\(source)-original.jpg"))
            sources += "\(source)-original.jpg\t\(path)\toriginal\n"
            let image = try ImageDecoder().decode(bytes).bitmap
            var random = SplitMix64(seed: Self.fnv1a(bytes))
            let left = Edit.allCases[Int(random.next() % 4)]
            for edit in Edit.allCases where edit != left {
                let (variant, description) = try Self.apply(edit, to: image, random: &random)
                let name = "\(source)-\(edit.rawValue).jpg"
                try Data(variant).write(to: URL(fileURLWithPath: "\(out)/photos/\(name)"))
                sources += "\(name)\t\(path)\t\(description)\n"
            }
            written += 4
        }
        try sources.write(toFile: "\(out)/sources.tsv", atomically: true, encoding: .utf8)
        print("\(written) files from \(written / 4) photos in \(out)")
    }

    /// The photos under the folders, in a stable order.
    private func photoPaths() throws -> [String] {
        var paths: [String] = []
        for folder in photos {
            guard let walker = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let relative as String in walker where relative.lowercased().hasSuffix(".jpg") {
                paths.append("\(folder)/\(relative)")
            }
        }
        return paths.sorted()
    }

    /// A uniform draw in `range`.
    private static func draw(_ range: ClosedRange<Double>, _ random: inout SplitMix64) -> Double {
        range.lowerBound + Double(random.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }

    static func apply(_ edit: Edit, to image: Bitmap, random: inout SplitMix64) throws -> ([UInt8], String) {
        switch edit {
        case .resized:
            let scale = draw(0.25...0.75, &random)
            let resized = image.resized(width: max(1, Int(Double(image.width) * scale)),
                                        height: max(1, Int(Double(image.height) * scale)))
            return (try JPEGEncoder(quality: 90).encode(resized), String(format: "resized to %.0f%%", scale * 100))
        case .recompressed:
            let quality = 40 + Int(random.next() % 51)
            return (try JPEGEncoder(quality: quality).encode(image), "JPEG quality \(quality)")
        case .cropped:
            let sides = 1 + Int(random.next() % 2)
            var left = 0, top = 0, right = image.width, bottom = image.height
            var named: [String] = []
            var candidates = ["left", "top", "right", "bottom"]
            for _ in 0..<sides {
                let side = candidates.remove(at: Int(random.next() % UInt64(candidates.count)))
                let share = draw(0.03...0.10, &random)
                let across = Int(Double(side == "left" || side == "right" ? image.width : image.height) * share)
                switch side {
                case "left": left += across
                case "top": top += across
                case "right": right -= across
                default: bottom -= across
                }
                named.append(String(format: "%@ %.0f%%", side, share * 100))
            }
            let cropped = image.cropped(to: PixelRect(x: left, y: top, width: right - left, height: bottom - top))
            return (try JPEGEncoder(quality: 90).encode(cropped), "cropped " + named.joined(separator: ", "))
        case .brightened:
            let amount = draw(0.05...0.20, &random) * (random.next() % 2 == 0 ? 1 : -1)
            var edited = image
            for i in 0..<edited.pixels.count {
                edited.pixels[i] = UInt8(min(255, max(0, (Double(edited.pixels[i]) * (1 + amount)).rounded())))
            }
            return (try JPEGEncoder(quality: 90).encode(edited), String(format: "brightness %+.0f%%", amount * 100))
        }
    }

    /// FNV-1a over the file's bytes: the seed of its edits.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}

import Foundation
import Imaging

/// The labelled photos the naming gets wrong (or all), one row each: the thumbnail, the
/// thumbnail as the naming sees it after the white adaptation (off the garment dimmed),
/// and each garment pixel painted with its name's swatch; to look at before changing a rule.
struct ColourSheet {
    var labels: String
    var photos: String
    var all: Bool

    static let swatches: [ClothingColour: [UInt8]] = [
        .black: [0, 0, 0], .white: [255, 255, 255], .grey: [128, 128, 128], .beige: [225, 200, 160],
        .brown: [120, 70, 30], .red: [210, 20, 20], .pink: [255, 150, 190], .orange: [255, 140, 0],
        .yellow: [250, 230, 0], .green: [30, 150, 40], .blue: [40, 110, 230], .navy: [10, 20, 100],
        .purple: [130, 40, 160], .multicolour: [0, 255, 255],
    ]

    func write(to out: String) throws {
        let rows = try String(contentsOfFile: labels, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
        let processor = ImageProcessor()
        let cell = 192
        var pictures: [[Bitmap]] = []
        for (index, row) in rows.enumerated() {
            let accepted = row[1].split(separator: "|").compactMap { ClothingColour(rawValue: String($0)) }
            let bytes = try processor.process(contentsOf: "\(photos)/\(row[2])", recipe: FashionMNISTRecipe()).thumbnail
            let colours = try processor.colours(ofThumbnail: bytes)
            guard all || !accepted.contains(colours.main) else { continue }
            let thumbnail = try processor.decoder.decode(bytes).bitmap.fitted(longestSide: processor.thumbnailSide).rgb()
            let named = GarmentColours.namedPixels(measuring: thumbnail)
            var seen = Bitmap(width: named.width, height: named.height, filledWith: [0, 0, 0])
            var painted = Bitmap(width: named.width, height: named.height, filledWith: [0, 255, 255])
            for y in 0..<seen.height {
                for x in 0..<seen.width {
                    let pixel = y * named.width + x
                    let rgb = Array(named.adapted[3 * pixel..<3 * pixel + 3])
                    seen.set(x: x, y: y, to: named.names[pixel] == nil ? rgb.map { $0 / 4 } : rgb)
                    if let name = named.names[pixel] { painted.set(x: x, y: y, to: Self.swatches[name]!) }
                }
            }
            print("row \(index): \(row[2]) hand \(row[1]) measured \(colours.main.rawValue)")
            pictures.append([thumbnail, seen, painted].map { $0.fitted(longestSide: cell) })
        }
        guard !pictures.isEmpty else { fail("every row agrees") }
        // Sheets of eight rows each: out, then out with -2, -3... before its extension.
        for (page, first) in stride(from: 0, to: pictures.count, by: 8).enumerated() {
            let part = pictures[first..<min(pictures.count, first + 8)]
            var sheet = Bitmap(width: 3 * (cell + 4), height: part.count * (cell + 4), filledWith: [40, 40, 40])
            for (row, images) in part.enumerated() {
                for (column, image) in images.enumerated() { sheet.draw(image, atX: column * (cell + 4), y: row * (cell + 4)) }
            }
            let name = page == 0 ? out : (out as NSString).deletingPathExtension + "-\(page + 1).png"
            try ImageFile.write(try PNGEncoder().encode(sheet), to: name)
        }
    }
}

import Foundation
import Imaging

/// How often the garment's main colour, measured on each photo's stored thumbnail as import
/// makes it, is one the hand labels accept (`bench/colour-labels.tsv`): the agreement over
/// all rows, over the even rows (on which the naming's constants were chosen) and the odd
/// rows (held out), a confusion table of the whole palette and the time the measurement takes.
struct ColourAgreement {
    var labels: String
    var photos: String

    func report() throws {
        let rows = try String(contentsOfFile: labels, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
        let processor = ImageProcessor()
        var agreed = [0, 0], counted = [0, 0]
        var confusion: [ClothingColour: [ClothingColour: Int]] = [:]
        var seconds = 0.0
        for (index, row) in rows.enumerated() {
            let accepted = row[1].split(separator: "|").compactMap { ClothingColour(rawValue: String($0)) }
            let thumbnail = try processor.process(contentsOf: "\(photos)/\(row[2])", recipe: FashionMNISTRecipe()).thumbnail
            let start = ProcessInfo.processInfo.systemUptime
            let colours = try processor.colours(ofThumbnail: thumbnail)
            seconds += ProcessInfo.processInfo.systemUptime - start
            counted[index % 2] += 1
            if accepted.contains(colours.main) { agreed[index % 2] += 1 }
            confusion[accepted[0], default: [:]][colours.main, default: 0] += 1
            let shares = colours.colours.map { "\($0.colour.rawValue) \(Int(($0.share * 100).rounded()))%" }.joined(separator: ", ")
            print("\(row[2])\t\(row[1])\t\(colours.main.rawValue)\t\(shares)\(colours.onGarment ? "" : " (whole image)")")
        }
        func figure(_ agreed: Int, _ count: Int) -> String {
            String(format: "%d of %d (%.3f)", agreed, count, Double(agreed) / Double(max(1, count)))
        }
        print("agreement: \(figure(agreed[0] + agreed[1], counted[0] + counted[1])); even rows (tuned on): "
              + "\(figure(agreed[0], counted[0])); odd rows (held out): \(figure(agreed[1], counted[1]))")
        print(String(format: "%.3f ms per thumbnail (decode and measure, wall)", seconds / Double(max(1, rows.count)) * 1000))
        let names = ClothingColour.allCases
        print("hand \\ measured\t" + names.map { String($0.rawValue.prefix(5)) }.joined(separator: "\t"))
        for name in names {
            print("\(name.rawValue)\t" + names.map { confusion[name]?[$0].map(String.init) ?? "." }.joined(separator: "\t"))
        }
    }
}

import Foundation
import Imaging

/// How often the garment's main colour, measured on each photo's stored thumbnail as import
/// makes it, is one the hand labels accept (`bench/colour-labels.tsv`): the agreement, a
/// confusion table of the palette and the CPU time the measurement takes per image.
struct ColourAgreement {
    var labels: String
    var photos: String

    func report() throws {
        let rows = try String(contentsOfFile: labels, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
        let processor = ImageProcessor()
        var agreed = 0
        var confusion: [String: [String: Int]] = [:]
        var seconds = 0.0
        for row in rows {
            let accepted = row[1].split(separator: "|").map(String.init)
            let thumbnail = try processor.process(contentsOf: "\(photos)/\(row[2])", recipe: FashionMNISTRecipe()).thumbnail
            let start = ProcessInfo.processInfo.systemUptime
            let colours = try processor.colours(ofThumbnail: thumbnail)
            seconds += ProcessInfo.processInfo.systemUptime - start
            let main = colours.main.rawValue
            if accepted.contains(main) { agreed += 1 }
            confusion[accepted[0], default: [:]][main, default: 0] += 1
            let shares = colours.colours.map { "\($0.colour.rawValue) \(Int(($0.share * 100).rounded()))%" }.joined(separator: ", ")
            print("\(row[2])\t\(row[1])\t\(main)\t\(shares)\(colours.onGarment ? "" : " (whole image)")")
        }
        print(String(format: "agreement: %d of %d (%.3f); %.3f ms per thumbnail (decode and measure, wall)",
                     agreed, rows.count, Double(agreed) / Double(rows.count), seconds / Double(rows.count) * 1000))
        let names = ClothingColour.allCases.map(\.rawValue)
        print("hand \\ measured\t" + names.map { String($0.prefix(5)) }.joined(separator: "\t"))
        for name in names where confusion[name] != nil {
            print("\(name)\t" + names.map { confusion[name]![$0].map(String.init) ?? "." }.joined(separator: "\t"))
        }
    }
}

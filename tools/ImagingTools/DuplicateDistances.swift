import Foundation
import Imaging

/// The distances `wardrobe duplicates` decides by, over every pair of a set `DuplicateSet`
/// wrote, as import measures each file: for each threshold, how many true pairs (one source)
/// and false pairs are within it by the whole picture's fingerprint, by the garment's, by
/// both and by their mean, alone and with the garment's colour as a guard. What a threshold is chosen from,
/// on the training photos' set.
struct DuplicateDistances {
    var set: String

    func report() throws {
        var files: [(name: String, source: String)] = []
        for line in try String(contentsOfFile: "\(set)/sources.tsv", encoding: .utf8).split(separator: "\n")
        where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            files.append((fields[0], fields[1]))
        }
        let processor = ImageProcessor()
        var measured: [(source: String, fingerprint: ImageFingerprint, colour: ClothingColour)] = []
        for file in files {
            let processed = try processor.processMeasuringColours(bytes: try ImageFile.read("\(set)/photos/\(file.name)"),
                                                                  recipe: PhotoRecipe())
            measured.append((file.source, processed.fingerprint!, processed.colours!.main))
        }
        let highest = 24
        // [kind][same source][threshold]: kinds are whole, garment, both (the larger) and their mean; each alone
        // and with the colour guard.
        let kinds = ["whole", "garment", "both", "mean", "whole+colour", "garment+colour", "both+colour", "mean+colour"]
        var within = [[[Int]]](repeating: [[Int]](repeating: [Int](repeating: 0, count: highest + 1), count: 2),
                               count: kinds.count)
        var pairs = [0, 0]
        for i in 0..<measured.count {
            for j in (i + 1)..<measured.count {
                let a = measured[i], b = measured[j]
                let same = a.source == b.source ? 1 : 0
                pairs[same] += 1
                let whole = ImageFingerprint.distance(a.fingerprint.whole, b.fingerprint.whole)
                let garment = a.fingerprint.garment.flatMap { x in b.fingerprint.garment.map { ImageFingerprint.distance(x, $0) } } ?? 64
                let distances = [whole, garment, max(whole, garment), (whole + garment) / 2]
                let sameColour = a.colour == b.colour
                for (kind, distance) in distances.enumerated() where distance <= highest {
                    for threshold in distance...highest {
                        within[kind][same][threshold] += 1
                        if sameColour { within[kind + 4][same][threshold] += 1 }
                    }
                }
            }
        }
        print("\(measured.count) files, \(pairs[1]) true pairs, \(pairs[0]) false pairs")
        print("threshold\t" + kinds.map { "\($0) true\tfalse" }.joined(separator: "\t"))
        for threshold in 0...highest {
            print("\(threshold)\t" + kinds.indices.map { "\(within[$0][1][threshold])\t\(within[$0][0][threshold])" }.joined(separator: "\t"))
        }
    }
}

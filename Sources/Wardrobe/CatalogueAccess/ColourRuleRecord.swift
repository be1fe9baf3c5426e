internal import Catalogue
import Foundation
import Imaging

extension CatalogueStore {
    /// Before this version stores colours it measured (import, classify, `colours`): a catalogue
    /// that holds no image yet records this version's rule, so that `colours` need not measure
    /// it all again; one that records a newer rule (a newer wardrobe measured it, on a catalogue
    /// both share) is set back to this version's, so that the newer one's `colours` measures
    /// every image again. Left at the newer rule, the colours measured here passed for the newer
    /// rule's and were never measured by it.
    func recordColourRuleBeforeMeasuring() throws {
        let recorded = try colourRule()
        if recorded == nil, try stats().images == 0 {
            try recordColourRule(GarmentColours.rule, at: Date())
        } else if let recorded, recorded > GarmentColours.rule {
            try recordColourRule(GarmentColours.rule, at: Date())
        }
    }
}

internal import Catalogue
import Imaging

extension StoredColours {
    /// The garment's colours as the catalogue keeps them: names as text, CIELAB as numbers.
    init(_ colours: GarmentColours) {
        self.init(main: colours.main.rawValue,
                  shares: colours.colours.map { share in
                      Share(name: share.colour.rawValue, share: share.share, lightness: share.lab.lightness,
                            a: share.lab.a, b: share.lab.b)
                  },
                  onGarment: colours.onGarment)
    }
}

import CommandLineKit
import Wardrobe

// Wardrobe's values that options name by a fixed set of words: each option of
// these types reads, refuses, shows and completes its words alike.
extension RowFormat: ArgumentChoice {}
extension ImageListing.Order: ArgumentChoice {}
extension ModelTraining.Augmentation: ArgumentChoice {}

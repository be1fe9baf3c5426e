// The Imaging module; see ../shared/DESIGN.md.

// Package papertree holds PaperTree's domain types, interfaces and error codes.
//
// It imports only the standard library. Every other package depends on it and
// never the other way round. Data flows one way through the project:
//
//	pdf -> treebuild -> store (+embedding) -> retrieve -> answer -> report/app
//
// A PaperTree is a rooted tree: the root is the paper (its title), internal
// nodes are the paper's own sections and subsections, and leaves are segments
// (bounded runs of consecutive sentences of one section) or captions. Every
// leaf resolves to a root-to-leaf path, a page span and bounding boxes.
package papertree

// Filtering and sorting a 5,000-paper library as the user types:
// npx vitest bench --run src/lib/papers.bench.ts
import { bench, describe } from "vitest";
import type { Paper } from "./api";
import { defaultQuery, selectPapers } from "./papers";

const topics = ["retrieval", "trees", "attention", "graphs", "summaries", "parsing", "vision", "speech"];
const papers: Paper[] = Array.from({ length: 5000 }, (_, i) => ({
  id: String(i + 1),
  title: `A study of ${topics[i % 8]} and ${topics[(i * 7) % 8]} number ${i}`,
  authors: [`Author ${i % 97}`, `Coauthor ${i % 31}`],
  year: 1990 + (i % 35),
  pages: 10,
  file: `/home/r/Papers/${i % 10}/p${i}.pdf`,
  status: i % 50 === 0 ? "failed" : "ready",
  code: "",
  message: "",
  stale: false,
  venue: i % 3 === 0 ? "Proceedings of ACL" : "NeurIPS",
  collections: i % 4 === 0 ? ["Reading"] : [],
  addedAt: i,
}));
const folders = Array.from({ length: 10 }, (_, i) => `/home/r/Papers/${i}`);

describe("5,000 papers", () => {
  bench("list, newest first", () => void selectPapers(papers, defaultQuery(), folders));
  bench("type 'retr' sorted by title", () => void selectPapers(papers, { ...defaultQuery(), query: "retr", sort: "title" }, folders));
  bench("two words + year sort + collection", () => void selectPapers(papers, { ...defaultQuery(), query: "attention 2004", sort: "year", collection: "Reading" }, folders));
  bench("folder filter", () => void selectPapers(papers, { ...defaultQuery(), folder: "/home/r/Papers/3" }, folders));
});

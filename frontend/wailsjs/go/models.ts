export namespace app {
	
	export class NamedView {
	    paperId: string;
	    title: string;
	    alone: boolean;
	
	    static createFrom(source: any = {}) {
	        return new NamedView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperId = source["paperId"];
	        this.title = source["title"];
	        this.alone = source["alone"];
	    }
	}
	export class PaperChoiceView {
	    paperId: string;
	    paperTitle: string;
	    chosen: boolean;
	    by: string;
	    reason: string;
	    score: number;
	
	    static createFrom(source: any = {}) {
	        return new PaperChoiceView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperId = source["paperId"];
	        this.paperTitle = source["paperTitle"];
	        this.chosen = source["chosen"];
	        this.by = source["by"];
	        this.reason = source["reason"];
	        this.score = source["score"];
	    }
	}
	export class SelectionView {
	    papers: PaperChoiceView[];
	    branch: string;
	    structure: string;
	    routeReason: string;
	    routedBy: string;
	    subQueries: string[];
	    rendered: string;
	
	    static createFrom(source: any = {}) {
	        return new SelectionView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.papers = this.convertValues(source["papers"], PaperChoiceView);
	        this.branch = source["branch"];
	        this.structure = source["structure"];
	        this.routeReason = source["routeReason"];
	        this.routedBy = source["routedBy"];
	        this.subQueries = source["subQueries"];
	        this.rendered = source["rendered"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DiagView {
	    sectionEntropy: number;
	    tokensUsed: number;
	    budget: number;
	    sections: number;
	    timings: Record<string, number>;
	    llmTokens: Record<string, number>;
	    fallbacks: string[];
	    droppedCitations: number;
	    selection?: SelectionView;
	    route: string;
	    routeWhy: string;
	    routeBy?: string;
	    named?: NamedView;
	    unnamed?: boolean;
	    askOf?: NamedView[];
	
	    static createFrom(source: any = {}) {
	        return new DiagView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sectionEntropy = source["sectionEntropy"];
	        this.tokensUsed = source["tokensUsed"];
	        this.budget = source["budget"];
	        this.sections = source["sections"];
	        this.timings = source["timings"];
	        this.llmTokens = source["llmTokens"];
	        this.fallbacks = source["fallbacks"];
	        this.droppedCitations = source["droppedCitations"];
	        this.selection = this.convertValues(source["selection"], SelectionView);
	        this.route = source["route"];
	        this.routeWhy = source["routeWhy"];
	        this.routeBy = source["routeBy"];
	        this.named = this.convertValues(source["named"], NamedView);
	        this.unnamed = source["unnamed"];
	        this.askOf = this.convertValues(source["askOf"], NamedView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PaperFindingView {
	    paperId: string;
	    title: string;
	    sentence: string;
	    path: string[];
	    pages: number[];
	    nodeId: string;
	    score: number;
	    cite: number;
	
	    static createFrom(source: any = {}) {
	        return new PaperFindingView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperId = source["paperId"];
	        this.title = source["title"];
	        this.sentence = source["sentence"];
	        this.path = source["path"];
	        this.pages = source["pages"];
	        this.nodeId = source["nodeId"];
	        this.score = source["score"];
	        this.cite = source["cite"];
	    }
	}
	export class BoxView {
	    page: number;
	    x0: number;
	    y0: number;
	    x1: number;
	    y1: number;
	
	    static createFrom(source: any = {}) {
	        return new BoxView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.page = source["page"];
	        this.x0 = source["x0"];
	        this.y0 = source["y0"];
	        this.x1 = source["x1"];
	        this.y1 = source["y1"];
	    }
	}
	export class EvidenceView {
	    paperId: string;
	    paperTitle: string;
	    nodeId: string;
	    kind: string;
	    role?: string;
	    path: string[];
	    pathIds: string[];
	    text: string;
	    pages: number[];
	    boxes: BoxView[];
	    score: number;
	    tokens: number;
	
	    static createFrom(source: any = {}) {
	        return new EvidenceView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperId = source["paperId"];
	        this.paperTitle = source["paperTitle"];
	        this.nodeId = source["nodeId"];
	        this.kind = source["kind"];
	        this.role = source["role"];
	        this.path = source["path"];
	        this.pathIds = source["pathIds"];
	        this.text = source["text"];
	        this.pages = source["pages"];
	        this.boxes = this.convertValues(source["boxes"], BoxView);
	        this.score = source["score"];
	        this.tokens = source["tokens"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AnswerView {
	    id: string;
	    question: string;
	    text: string;
	    mode: string;
	    strategy: string;
	    notFound: boolean;
	    verdict: string;
	    model: string;
	    createdAt: string;
	    paperIds: string[];
	    evidence: EvidenceView[];
	    papers: PaperFindingView[];
	    diag: DiagView;
	    removedPapers: string[];
	
	    static createFrom(source: any = {}) {
	        return new AnswerView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.question = source["question"];
	        this.text = source["text"];
	        this.mode = source["mode"];
	        this.strategy = source["strategy"];
	        this.notFound = source["notFound"];
	        this.verdict = source["verdict"];
	        this.model = source["model"];
	        this.createdAt = source["createdAt"];
	        this.paperIds = source["paperIds"];
	        this.evidence = this.convertValues(source["evidence"], EvidenceView);
	        this.papers = this.convertValues(source["papers"], PaperFindingView);
	        this.diag = this.convertValues(source["diag"], DiagView);
	        this.removedPapers = source["removedPapers"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AppInfo {
	    name: string;
	    version: string;
	    libraryDir: string;
	    backend: boolean;
	
	    static createFrom(source: any = {}) {
	        return new AppInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.version = source["version"];
	        this.libraryDir = source["libraryDir"];
	        this.backend = source["backend"];
	    }
	}
	export class AskInput {
	    question: string;
	    paperIds: string[];
	    strategy: string;
	    budget: number;
	    unnamed?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new AskInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.question = source["question"];
	        this.paperIds = source["paperIds"];
	        this.strategy = source["strategy"];
	        this.budget = source["budget"];
	        this.unnamed = source["unnamed"];
	    }
	}
	
	export class CompareCellView {
	    paperId: string;
	    aspect: string;
	    text: string;
	    notFound: boolean;
	    evidence: EvidenceView[];
	
	    static createFrom(source: any = {}) {
	        return new CompareCellView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperId = source["paperId"];
	        this.aspect = source["aspect"];
	        this.text = source["text"];
	        this.notFound = source["notFound"];
	        this.evidence = this.convertValues(source["evidence"], EvidenceView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CompareInput {
	    paperIds: string[];
	    aspects: string[];
	
	    static createFrom(source: any = {}) {
	        return new CompareInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperIds = source["paperIds"];
	        this.aspects = source["aspects"];
	    }
	}
	export class ComparePaperView {
	    paperId: string;
	    paperTitle: string;
	
	    static createFrom(source: any = {}) {
	        return new ComparePaperView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperId = source["paperId"];
	        this.paperTitle = source["paperTitle"];
	    }
	}
	export class CompareView {
	    papers: ComparePaperView[];
	    aspects: string[];
	    cells: CompareCellView[];
	    aspectsProposed: boolean;
	    warnings: string[];
	    millis: number;
	
	    static createFrom(source: any = {}) {
	        return new CompareView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.papers = this.convertValues(source["papers"], ComparePaperView);
	        this.aspects = source["aspects"];
	        this.cells = this.convertValues(source["cells"], CompareCellView);
	        this.aspectsProposed = source["aspectsProposed"];
	        this.warnings = source["warnings"];
	        this.millis = source["millis"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HeadingEditView {
	    id: string;
	    op: string;
	    target: string;
	    arg: string;
	    level: number;
	    unmatched: boolean;
	
	    static createFrom(source: any = {}) {
	        return new HeadingEditView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.op = source["op"];
	        this.target = source["target"];
	        this.arg = source["arg"];
	        this.level = source["level"];
	        this.unmatched = source["unmatched"];
	    }
	}
	export class FieldEditView {
	    field: string;
	    value: string;
	    read: string;
	
	    static createFrom(source: any = {}) {
	        return new FieldEditView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.field = source["field"];
	        this.value = source["value"];
	        this.read = source["read"];
	    }
	}
	export class CorrectionsView {
	    paperId: string;
	    fields: FieldEditView[];
	    headings: HeadingEditView[];
	
	    static createFrom(source: any = {}) {
	        return new CorrectionsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperId = source["paperId"];
	        this.fields = this.convertValues(source["fields"], FieldEditView);
	        this.headings = this.convertValues(source["headings"], HeadingEditView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class FileFailure {
	    path: string;
	    code: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new FileFailure(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.code = source["code"];
	        this.message = source["message"];
	    }
	}
	export class HeadingEditInput {
	    nodeId: string;
	    op: string;
	    text: string;
	    level: number;
	
	    static createFrom(source: any = {}) {
	        return new HeadingEditInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.nodeId = source["nodeId"];
	        this.op = source["op"];
	        this.text = source["text"];
	        this.level = source["level"];
	    }
	}
	
	export class HistoryItem {
	    id: string;
	    question: string;
	    text: string;
	    mode: string;
	    notFound: boolean;
	    evidence: number;
	    createdAt: string;
	
	    static createFrom(source: any = {}) {
	        return new HistoryItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.question = source["question"];
	        this.text = source["text"];
	        this.mode = source["mode"];
	        this.notFound = source["notFound"];
	        this.evidence = source["evidence"];
	        this.createdAt = source["createdAt"];
	    }
	}
	export class ImportSkip {
	    item: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportSkip(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.item = source["item"];
	        this.reason = source["reason"];
	    }
	}
	export class ImportResult {
	    source: string;
	    imported: number;
	    unchanged: number;
	    skipped: ImportSkip[];
	    collections: string[];
	    millis: number;
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.source = source["source"];
	        this.imported = source["imported"];
	        this.unchanged = source["unchanged"];
	        this.skipped = this.convertValues(source["skipped"], ImportSkip);
	        this.collections = source["collections"];
	        this.millis = source["millis"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class LLMHealthView {
	    configured: boolean;
	    reachable: boolean;
	    baseUrl: string;
	    problem: string;
	    checkedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new LLMHealthView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.configured = source["configured"];
	        this.reachable = source["reachable"];
	        this.baseUrl = source["baseUrl"];
	        this.problem = source["problem"];
	        this.checkedAt = source["checkedAt"];
	    }
	}
	export class LLMStatusView {
	    provider: string;
	    baseUrl: string;
	    reachable: boolean;
	    models: string[];
	    chatModel: string;
	    embedModel: string;
	    chatModelOk: boolean;
	    embedModelOk: boolean;
	    problems: string[];
	    summary: string;
	    on: boolean;
	
	    static createFrom(source: any = {}) {
	        return new LLMStatusView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.baseUrl = source["baseUrl"];
	        this.reachable = source["reachable"];
	        this.models = source["models"];
	        this.chatModel = source["chatModel"];
	        this.embedModel = source["embedModel"];
	        this.chatModelOk = source["chatModelOk"];
	        this.embedModelOk = source["embedModelOk"];
	        this.problems = source["problems"];
	        this.summary = source["summary"];
	        this.on = source["on"];
	    }
	}
	
	
	export class TreeNode {
	    id: string;
	    kind: string;
	    role: string;
	    title: string;
	    number: string;
	    level: number;
	    text: string;
	    pageStart: number;
	    pageEnd: number;
	    boxes: BoxView[];
	    children: TreeNode[];
	    edited: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TreeNode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.role = source["role"];
	        this.title = source["title"];
	        this.number = source["number"];
	        this.level = source["level"];
	        this.text = source["text"];
	        this.pageStart = source["pageStart"];
	        this.pageEnd = source["pageEnd"];
	        this.boxes = this.convertValues(source["boxes"], BoxView);
	        this.children = this.convertValues(source["children"], TreeNode);
	        this.edited = source["edited"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PaperDetail {
	    id: string;
	    title: string;
	    authors: string[];
	    abstract: string;
	    year: number;
	    pages: number;
	    file: string;
	    warnings: string[];
	    root?: TreeNode;
	    venue: string;
	    doi: string;
	    citationKey: string;
	    corrections: CorrectionsView;
	
	    static createFrom(source: any = {}) {
	        return new PaperDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.authors = source["authors"];
	        this.abstract = source["abstract"];
	        this.year = source["year"];
	        this.pages = source["pages"];
	        this.file = source["file"];
	        this.warnings = source["warnings"];
	        this.root = this.convertValues(source["root"], TreeNode);
	        this.venue = source["venue"];
	        this.doi = source["doi"];
	        this.citationKey = source["citationKey"];
	        this.corrections = this.convertValues(source["corrections"], CorrectionsView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class PaperView {
	    id: string;
	    title: string;
	    authors: string[];
	    year: number;
	    pages: number;
	    file: string;
	    status: string;
	    code: string;
	    message: string;
	    stale: boolean;
	    venue: string;
	    arxivId: string;
	    doi: string;
	    citationKey: string;
	    collections: string[];
	    tags: string[];
	    source: string;
	    addedAt: number;
	    ocrPages: number;
	    edited: string[];
	    headingEdits: number;
	    unmatchedEdits: number;
	
	    static createFrom(source: any = {}) {
	        return new PaperView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.authors = source["authors"];
	        this.year = source["year"];
	        this.pages = source["pages"];
	        this.file = source["file"];
	        this.status = source["status"];
	        this.code = source["code"];
	        this.message = source["message"];
	        this.stale = source["stale"];
	        this.venue = source["venue"];
	        this.arxivId = source["arxivId"];
	        this.doi = source["doi"];
	        this.citationKey = source["citationKey"];
	        this.collections = source["collections"];
	        this.tags = source["tags"];
	        this.source = source["source"];
	        this.addedAt = source["addedAt"];
	        this.ocrPages = source["ocrPages"];
	        this.edited = source["edited"];
	        this.headingEdits = source["headingEdits"];
	        this.unmatchedEdits = source["unmatchedEdits"];
	    }
	}
	export class RemovedView {
	    id: string;
	    title: string;
	    file: string;
	    removedAt: number;
	
	    static createFrom(source: any = {}) {
	        return new RemovedView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.file = source["file"];
	        this.removedAt = source["removedAt"];
	    }
	}
	export class RemoveResult {
	    token: string;
	    papers: RemovedView[];
	    undoSeconds: number;
	
	    static createFrom(source: any = {}) {
	        return new RemoveResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.token = source["token"];
	        this.papers = this.convertValues(source["papers"], RemovedView);
	        this.undoSeconds = source["undoSeconds"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SameFile {
	    path: string;
	    of: string;
	
	    static createFrom(source: any = {}) {
	        return new SameFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.of = source["of"];
	    }
	}
	export class SaveResult {
	    llm: LLMStatusView;
	    reindex: boolean;
	    restartForData: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SaveResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.llm = this.convertValues(source["llm"], LLMStatusView);
	        this.reindex = source["reindex"];
	        this.restartForData = source["restartForData"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SnippetPartView {
	    text: string;
	    mark: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SnippetPartView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.mark = source["mark"];
	    }
	}
	export class SearchHitView {
	    paperId: string;
	    title: string;
	    score: number;
	    snippet: SnippetPartView[];
	    path: string[];
	    nodeId: string;
	    page: number;
	    match: string;
	
	    static createFrom(source: any = {}) {
	        return new SearchHitView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paperId = source["paperId"];
	        this.title = source["title"];
	        this.score = source["score"];
	        this.snippet = this.convertValues(source["snippet"], SnippetPartView);
	        this.path = source["path"];
	        this.nodeId = source["nodeId"];
	        this.page = source["page"];
	        this.match = source["match"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SettingsInput {
	    settings: settings.Settings;
	    apiKey: string;
	    clearKey: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SettingsInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.settings = this.convertValues(source["settings"], settings.Settings);
	        this.apiKey = source["apiKey"];
	        this.clearKey = source["clearKey"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SettingsView {
	    settings: settings.Settings;
	    descriptions: Record<string, string>;
	    strategies: string[];
	    apiKeySet: boolean;
	    keyWhere: string;
	    path: string;
	    libraryDir: string;
	    llm: LLMStatusView;
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.settings = this.convertValues(source["settings"], settings.Settings);
	        this.descriptions = source["descriptions"];
	        this.strategies = source["strategies"];
	        this.apiKeySet = source["apiKeySet"];
	        this.keyWhere = source["keyWhere"];
	        this.path = source["path"];
	        this.libraryDir = source["libraryDir"];
	        this.llm = this.convertValues(source["llm"], LLMStatusView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class StartItem {
	    path: string;
	    kind: string;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new StartItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.kind = source["kind"];
	        this.error = source["error"];
	    }
	}
	export class Summary {
	    indexed: number;
	    skipped: number;
	    failures: FileFailure[];
	    millis: number;
	    duplicates: SameFile[];
	    moved: SameFile[];
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.indexed = source["indexed"];
	        this.skipped = source["skipped"];
	        this.failures = this.convertValues(source["failures"], FileFailure);
	        this.millis = source["millis"];
	        this.duplicates = this.convertValues(source["duplicates"], SameFile);
	        this.moved = this.convertValues(source["moved"], SameFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class UndoResult {
	    restored: number;
	    reindexed: Summary;
	
	    static createFrom(source: any = {}) {
	        return new UndoResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.restored = source["restored"];
	        this.reindexed = this.convertValues(source["reindexed"], Summary);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ZoteroLibraryView {
	    id: string;
	    type: string;
	    name: string;
	    items: number;
	
	    static createFrom(source: any = {}) {
	        return new ZoteroLibraryView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.type = source["type"];
	        this.name = source["name"];
	        this.items = source["items"];
	    }
	}

}

export namespace discourse {
	
	export class Options {
	    bisection?: boolean;
	    no_cohesion?: boolean;
	    no_connectives?: boolean;
	    no_punct?: boolean;
	    no_position?: boolean;
	    no_sections?: boolean;
	    mean_pool?: boolean;
	    max_words?: number;
	
	    static createFrom(source: any = {}) {
	        return new Options(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.bisection = source["bisection"];
	        this.no_cohesion = source["no_cohesion"];
	        this.no_connectives = source["no_connectives"];
	        this.no_punct = source["no_punct"];
	        this.no_position = source["no_position"];
	        this.no_sections = source["no_sections"];
	        this.mean_pool = source["mean_pool"];
	        this.max_words = source["max_words"];
	    }
	}

}

export namespace retrieve {
	
	export class DiscParams {
	    leaf_top_k?: number;
	    leaf_only?: boolean;
	    tree: discourse.Options;
	
	    static createFrom(source: any = {}) {
	        return new DiscParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.leaf_top_k = source["leaf_top_k"];
	        this.leaf_only = source["leaf_only"];
	        this.tree = this.convertValues(source["tree"], discourse.Options);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RDR2Params {
	    top_k?: number;
	    expand_iter?: number;
	    no_expand?: boolean;
	    no_refuse?: boolean;
	    no_router?: boolean;
	    ans_threshold?: number;
	    exp_threshold?: number;
	    no_headings?: boolean;
	    no_bm25?: boolean;
	    no_sibling?: boolean;
	    no_summary?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RDR2Params(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.top_k = source["top_k"];
	        this.expand_iter = source["expand_iter"];
	        this.no_expand = source["no_expand"];
	        this.no_refuse = source["no_refuse"];
	        this.no_router = source["no_router"];
	        this.ans_threshold = source["ans_threshold"];
	        this.exp_threshold = source["exp_threshold"];
	        this.no_headings = source["no_headings"];
	        this.no_bm25 = source["no_bm25"];
	        this.no_sibling = source["no_sibling"];
	        this.no_summary = source["no_summary"];
	    }
	}
	export class Params {
	    section_llm_weight: number;
	    segment_weight: number;
	    sections: number;
	    paths: number;
	    hops: number;
	    text_weight: number;
	    title_weight: number;
	    chunk_tokens: number;
	    max_papers: number;
	    leaf_weight: number;
	    soft: number;
	    no_summaries: boolean;
	    no_paths: boolean;
	    rdr2: RDR2Params;
	    disretrieval: DiscParams;
	    sentence_weight: number;
	    cutoff: number;
	    sentence_vector_weight: number;
	    sentence_bm25_weight: number;
	
	    static createFrom(source: any = {}) {
	        return new Params(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.section_llm_weight = source["section_llm_weight"];
	        this.segment_weight = source["segment_weight"];
	        this.sections = source["sections"];
	        this.paths = source["paths"];
	        this.hops = source["hops"];
	        this.text_weight = source["text_weight"];
	        this.title_weight = source["title_weight"];
	        this.chunk_tokens = source["chunk_tokens"];
	        this.max_papers = source["max_papers"];
	        this.leaf_weight = source["leaf_weight"];
	        this.soft = source["soft"];
	        this.no_summaries = source["no_summaries"];
	        this.no_paths = source["no_paths"];
	        this.rdr2 = this.convertValues(source["rdr2"], RDR2Params);
	        this.disretrieval = this.convertValues(source["disretrieval"], DiscParams);
	        this.sentence_weight = source["sentence_weight"];
	        this.cutoff = source["cutoff"];
	        this.sentence_vector_weight = source["sentence_vector_weight"];
	        this.sentence_bm25_weight = source["sentence_bm25_weight"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace settings {
	
	export class LLM {
	    provider: string;
	    base_url: string;
	    chat_model: string;
	    embed_model: string;
	    use_llm_embeddings: boolean;
	    connect_timeout_seconds: number;
	    first_byte_timeout_seconds: number;
	    call_timeout_seconds: number;
	    answer_budget_seconds: number;
	    max_reply_mb: number;
	
	    static createFrom(source: any = {}) {
	        return new LLM(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.chat_model = source["chat_model"];
	        this.embed_model = source["embed_model"];
	        this.use_llm_embeddings = source["use_llm_embeddings"];
	        this.connect_timeout_seconds = source["connect_timeout_seconds"];
	        this.first_byte_timeout_seconds = source["first_byte_timeout_seconds"];
	        this.call_timeout_seconds = source["call_timeout_seconds"];
	        this.answer_budget_seconds = source["answer_budget_seconds"];
	        this.max_reply_mb = source["max_reply_mb"];
	    }
	}
	export class Parse {
	    use_outline: boolean;
	    max_segment_tokens: number;
	    file_timeout_seconds: number;
	    ocr: boolean;
	    ocr_languages: string;
	
	    static createFrom(source: any = {}) {
	        return new Parse(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.use_outline = source["use_outline"];
	        this.max_segment_tokens = source["max_segment_tokens"];
	        this.file_timeout_seconds = source["file_timeout_seconds"];
	        this.ocr = source["ocr"];
	        this.ocr_languages = source["ocr_languages"];
	    }
	}
	export class Retrieval {
	    strategy: string;
	    budget: number;
	    params: retrieve.Params;
	
	    static createFrom(source: any = {}) {
	        return new Retrieval(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.strategy = source["strategy"];
	        this.budget = source["budget"];
	        this.params = this.convertValues(source["params"], retrieve.Params);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Settings {
	    data_dir: string;
	    llm: LLM;
	    retrieval: Retrieval;
	    parse: Parse;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.data_dir = source["data_dir"];
	        this.llm = this.convertValues(source["llm"], LLM);
	        this.retrieval = this.convertValues(source["retrieval"], Retrieval);
	        this.parse = this.convertValues(source["parse"], Parse);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}


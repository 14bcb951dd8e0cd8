export namespace app {
	
	export class DiagView {
	    sectionEntropy: number;
	    tokensUsed: number;
	    budget: number;
	    sections: number;
	    timings: Record<string, number>;
	    llmTokens: Record<string, number>;
	    fallbacks: string[];
	    droppedCitations: number;
	
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
	    diag: DiagView;
	
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
	        this.diag = this.convertValues(source["diag"], DiagView);
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
	
	    static createFrom(source: any = {}) {
	        return new AskInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.question = source["question"];
	        this.paperIds = source["paperIds"];
	        this.strategy = source["strategy"];
	        this.budget = source["budget"];
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
	export class Summary {
	    indexed: number;
	    skipped: number;
	    failures: FileFailure[];
	    millis: number;
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.indexed = source["indexed"];
	        this.skipped = source["skipped"];
	        this.failures = this.convertValues(source["failures"], FileFailure);
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

}

export namespace retrieve {
	
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
	    sentence_weight: number;
	    cutoff: number;
	
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
	        this.sentence_weight = source["sentence_weight"];
	        this.cutoff = source["cutoff"];
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
	    }
	}
	export class Parse {
	    use_outline: boolean;
	    max_segment_tokens: number;
	
	    static createFrom(source: any = {}) {
	        return new Parse(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.use_outline = source["use_outline"];
	        this.max_segment_tokens = source["max_segment_tokens"];
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


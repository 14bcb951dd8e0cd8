export namespace app {
	
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


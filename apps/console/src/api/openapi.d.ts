// Generated from the gateway's /api/openapi.json by apps/console/scripts/openapi.ts at build; do not edit.
export interface paths {
    "/api/admin/backups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Back up the embedded store while it serves (platform owners) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bytes: number;
                            /** @description Where the copy is, on the server: start with DATA_DIR set to it to restore */
                            directory: string;
                            durationMs: number;
                            /** @description Log lines written: one per document and one per index */
                            records: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/dev/platform-owner/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Development only: redeem the one-time owner-promotion token from the server log */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every project (platform owners) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                access?: {
                                    delete?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    read?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    update?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                };
                                aiEnabled: boolean;
                                createdAt: number;
                                id: string;
                                name: string;
                                ownerId: string;
                                revision: number;
                                /** @description The owning tenant; absent only on projects older than tenants */
                                tenantId?: string;
                                updatedAt: number;
                            }[];
                            limit: number;
                            page: number;
                            total: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every tenant (platform owners) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: number;
                                createdBy: string;
                                id: string;
                                name: string;
                                /** @description A user's own tenant, created with the account; it has no other members */
                                personal: boolean;
                                updatedAt: number;
                            }[];
                            limit: number;
                            page: number;
                            total: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every user (platform owners) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                avatarUrl?: string;
                                createdAt: number;
                                displayName: string;
                                email: string;
                                id: string;
                                language?: string;
                                platformOwner: boolean;
                                profileFields: {
                                    [key: string]: {
                                        /** @enum {string} */
                                        privacy: "public" | "projects" | "private";
                                        value?: unknown;
                                    };
                                };
                                recentProjects: {
                                    [key: string]: number;
                                };
                            }[];
                            limit: number;
                            page: number;
                            total: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with email and password
         * @description Failures answer one generic 401; repeated failures per account or per IP answer 429 with Retry-After.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Absolute expiry, Unix ms: 30 days after sign-in */
                            expiresAt: number;
                            /** @description The session token, for clients that send `Authorization: Bearer <token>` instead of the cookie */
                            token: string;
                            user: {
                                avatarUrl?: string;
                                createdAt: number;
                                displayName: string;
                                email: string;
                                id: string;
                                language?: string;
                                platformOwner: boolean;
                                profileFields: {
                                    [key: string]: {
                                        /** @enum {string} */
                                        privacy: "public" | "projects" | "private";
                                        value?: unknown;
                                    };
                                };
                                recentProjects: {
                                    [key: string]: number;
                                };
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the current session (idempotent) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Signed out */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account and sign in
         * @description Registrations per client address are limited (20 an hour by default); over the limit the answer is 429 with Retry-After.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        displayName?: string;
                        email: string;
                        language?: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Absolute expiry, Unix ms: 30 days after sign-in */
                            expiresAt: number;
                            /** @description The session token, for clients that send `Authorization: Bearer <token>` instead of the cookie */
                            token: string;
                            user: {
                                avatarUrl?: string;
                                createdAt: number;
                                displayName: string;
                                email: string;
                                id: string;
                                language?: string;
                                platformOwner: boolean;
                                profileFields: {
                                    [key: string]: {
                                        /** @enum {string} */
                                        privacy: "public" | "projects" | "private";
                                        value?: unknown;
                                    };
                                };
                                recentProjects: {
                                    [key: string]: number;
                                };
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health of the gateway, its services and backends
         * @description Anyone gets the status; platform owners also get the shape and the state of every service and backend.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description How a membership or permission change reaches the caches of this process */
                            accessRevocation?: {
                                /**
                                 * @description notices: changes are announced over the bus and hold within milliseconds; expiry: the bus is down, cached standing ends after expiryMs
                                 * @enum {string}
                                 */
                                by: "notices" | "expiry";
                                /** @description PROJECT_ACCESS_CACHE_MS: the bound while notices cannot arrive */
                                expiryMs: number;
                            };
                            dependencies: {
                                [key: string]: {
                                    checkedAt?: number;
                                    /** @description Which adapter or where, e.g. embedded, mongodb, in-process */
                                    kind?: string;
                                    up: boolean;
                                };
                            };
                            services: {
                                [key: string]: {
                                    checkedAt?: number;
                                    /** @description Which adapter or where, e.g. embedded, mongodb, in-process */
                                    kind?: string;
                                    up: boolean;
                                };
                            };
                            /** @enum {string} */
                            shape?: "all-in-one" | "microservices";
                            /** @enum {string} */
                            status: "ok" | "degraded";
                        } | {
                            /** @enum {string} */
                            status: "ok" | "degraded";
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health/data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health of the data service */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            service: string;
                            state?: {
                                checkedAt?: number;
                                /** @description Which adapter or where, e.g. embedded, mongodb, in-process */
                                kind?: string;
                                up: boolean;
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health/identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health of the identity service */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            service: string;
                            state?: {
                                checkedAt?: number;
                                /** @description Which adapter or where, e.g. embedded, mongodb, in-process */
                                kind?: string;
                                up: boolean;
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/help/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the help assistant about the platform (answers from llm.txt and the OpenAPI document) */
        post: {
            parameters: {
                query?: {
                    /** @description The project route the question comes from */
                    projectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        messages: {
                            content: string;
                            /** @enum {string} */
                            role: "user" | "assistant";
                        }[];
                        projectId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: {
                                content: string;
                                /** @enum {string} */
                                role: "assistant";
                            };
                            usage: {
                                completionTokens: number;
                                promptTokens: number;
                                totalTokens: number;
                            };
                        };
                    };
                };
                /** @description AI is disabled for the project (message in German for users whose language is de) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description The AI provider failed or answered something unusable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description No AI provider is configured on this server */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description The AI provider did not answer in time */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            avatarUrl?: string;
                            createdAt: number;
                            displayName: string;
                            email: string;
                            id: string;
                            language?: string;
                            platformOwner: boolean;
                            profileFields: {
                                [key: string]: {
                                    /** @enum {string} */
                                    privacy: "public" | "projects" | "private";
                                    value?: unknown;
                                };
                            };
                            recentProjects: {
                                [key: string]: number;
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/avatar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set or clear the current user's avatar image URL */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uri */
                        url: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            avatarUrl?: string;
                            createdAt: number;
                            displayName: string;
                            email: string;
                            id: string;
                            language?: string;
                            platformOwner: boolean;
                            profileFields: {
                                [key: string]: {
                                    /** @enum {string} */
                                    privacy: "public" | "projects" | "private";
                                    value?: unknown;
                                };
                            };
                            recentProjects: {
                                [key: string]: number;
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's pending invitations to projects and tenants, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: ({
                                createdAt: number;
                                /** @description Unix ms; a pending invitation lapses 14 days after it was last sent */
                                expiresAt: number;
                                id: string;
                                invitedBy: string;
                                /** @enum {string} */
                                kind: "project";
                                /** @description The project's name */
                                name: string;
                                /** @description Scoped `{projectId}::name`; the member gets them on accepting */
                                permissions: string[];
                                projectId: string;
                                /** @description The invited user; an id nobody has gets an invitation nobody ever sees */
                                userId: string;
                            } | {
                                createdAt: number;
                                /** @description Unix ms; a pending invitation lapses 14 days after it was last sent */
                                expiresAt: number;
                                id: string;
                                invitedBy: string;
                                /** @enum {string} */
                                kind: "tenant";
                                /** @description The tenant's name */
                                name: string;
                                /** @enum {string} */
                                role: "admin" | "member";
                                tenantId: string;
                                /** @description The invited user; an id nobody has gets an invitation nobody ever sees */
                                userId: string;
                            })[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/invitations/{invitationId}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation: become a member of the project or tenant
         * @description Answers the new membership. An invitation that is not the caller's, was answered, withdrawn or has lapsed is 404.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    invitationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: number;
                            permissions: string[];
                            projectId: string;
                            /** @enum {string} */
                            role: "owner" | "member";
                            userId: string;
                        } | {
                            createdAt: number;
                            /** @enum {string} */
                            role: "admin" | "member";
                            tenantId: string;
                            userId: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/invitations/{invitationId}/decline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decline an invitation */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    invitationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Declined */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/last-project": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Record that the current user opened a project
         * @description Replaces recentProjects with a snapshot sorted newest first and capped at 50 (oldest evicted). 404 for a project the user is not a member of.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        projectId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            recentProjects: {
                                [key: string]: number;
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update profile fields
         * @description Accepts firstName, lastName, displayName (plain value, stored with privacy `projects`, or `{ value, privacy }`) and email (`{ privacy }` only); other keys are ignored.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            displayName: string;
                            id: string;
                            profileFields: {
                                [key: string]: {
                                    /** @enum {string} */
                                    privacy: "public" | "projects" | "private";
                                    value?: unknown;
                                };
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's projects: those it is a member of and all projects of tenants it administers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                access?: {
                                    delete?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    read?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    update?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                };
                                aiEnabled: boolean;
                                createdAt: number;
                                id: string;
                                name: string;
                                ownerId: string;
                                revision: number;
                                /** @description The owning tenant; absent only on projects older than tenants */
                                tenantId?: string;
                                updatedAt: number;
                            }[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a project; the caller becomes its owner */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description RLS of the project itself; plain permission names are scoped to the new project */
                        access?: {
                            delete?: {
                                permission?: string;
                                userIds?: string[];
                            };
                            read?: {
                                permission?: string;
                                userIds?: string[];
                            };
                            update?: {
                                permission?: string;
                                userIds?: string[];
                            };
                        };
                        name: string;
                        /** @description A tenant the caller belongs to; the caller's personal tenant when absent */
                        tenantId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access?: {
                                delete?: {
                                    permission?: string;
                                    userIds?: string[];
                                };
                                read?: {
                                    permission?: string;
                                    userIds?: string[];
                                };
                                update?: {
                                    permission?: string;
                                    userIds?: string[];
                                };
                            };
                            aiEnabled: boolean;
                            createdAt: number;
                            id: string;
                            name: string;
                            ownerId: string;
                            revision: number;
                            /** @description The owning tenant; absent only on projects older than tenants */
                            tenantId?: string;
                            updatedAt: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One project */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access?: {
                                delete?: {
                                    permission?: string;
                                    userIds?: string[];
                                };
                                read?: {
                                    permission?: string;
                                    userIds?: string[];
                                };
                                update?: {
                                    permission?: string;
                                    userIds?: string[];
                                };
                            };
                            aiEnabled: boolean;
                            createdAt: number;
                            id: string;
                            name: string;
                            ownerId: string;
                            revision: number;
                            /** @description The owning tenant; absent only on projects older than tenants */
                            tenantId?: string;
                            updatedAt: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/ai-agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List entities; with updatedAt, pull every change after that time (deleted ones as tombstones: id, revision, timestamps, deletedAt, access) */
        get: {
            parameters: {
                query?: {
                    /** @description From the previous page, to continue it (optional: updatedAt alone is as safe) */
                    cursor?: string;
                    /** @description true, false, 1 or 0 */
                    includeChanges?: "0" | "1" | "true" | "false";
                    /** @description Items per page; a page runs over it to finish its last millisecond */
                    limit?: number;
                    /** @description 0 returns all; otherwise entities modified after this time, deleted ones included as tombstones. Pulling again from the largest updatedAt seen misses nothing */
                    updatedAt?: number;
                };
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present when more items follow; pass it back to continue. An optimisation: pulling again from the largest updatedAt of the page misses nothing either */
                            cursor?: string;
                            /** @description In (updatedAt, id) order. A page never ends inside a millisecond: with more to come it holds at least limit items, then all that share its last updatedAt */
                            items: (({
                                /** @description The change history, oldest first (with includeChanges, and on writes) */
                                changes?: {
                                    /** @description The revision the change was made on; -1 for the creation */
                                    baseRevision: number;
                                    /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                    modifier: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description When, Unix ms */
                                    timestamp: number;
                                    /** @description Who made the change */
                                    userId: string;
                                }[];
                                createdAt: number;
                                deletedAt?: number;
                                id: string;
                                revision: number;
                                /** @description Unix ms of the last write; writes in one millisecond share it */
                                updatedAt: number;
                            } & {
                                [key: string]: unknown;
                            }) | {
                                access?: {
                                    delete?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    read?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    update?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                };
                                createdAt: number;
                                deletedAt: number;
                                id: string;
                                revision: number;
                                updatedAt: number;
                            })[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an entity (the complete document with changes in the answer) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            /** @description The full entity; id is generated when absent */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/ai-agents/{agentId}/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Chat with an agent: its instructions as the system message, then the conversation (needs read on the agent) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agentId: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        messages: {
                            content: string;
                            /** @enum {string} */
                            role: "user" | "assistant";
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: {
                                content: string;
                                /** @enum {string} */
                                role: "assistant";
                            };
                            usage: {
                                completionTokens: number;
                                promptTokens: number;
                                totalTokens: number;
                            };
                        };
                    };
                };
                /** @description AI is disabled for the project (message in German for users whose language is de) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description The AI provider failed or answered something unusable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description No AI provider is configured on this server */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description The AI provider did not answer in time */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/ai-agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One entity */
        get: {
            parameters: {
                query?: {
                    /** @description true, false, 1 or 0 */
                    includeChanges?: "0" | "1" | "true" | "false";
                };
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Soft-delete an entity */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Apply an update modifier if the entity is still at baseRevision (409 with conflict details otherwise) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        baseRevision: number;
                        modifier: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "DATA_REVISION_CONFLICT";
                            details: {
                                baseRevision: number;
                                /** @description The changes after baseRevision, oldest first */
                                changesSince: {
                                    /** @description The revision the change was made on; -1 for the creation */
                                    baseRevision: number;
                                    /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                    modifier: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description When, Unix ms */
                                    timestamp: number;
                                    /** @description Who made the change */
                                    userId: string;
                                }[];
                                /** @description The entity on the server now */
                                current: {
                                    /** @description The change history, oldest first (with includeChanges, and on writes) */
                                    changes?: {
                                        /** @description The revision the change was made on; -1 for the creation */
                                        baseRevision: number;
                                        /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                        modifier: {
                                            [key: string]: {
                                                [key: string]: unknown;
                                            };
                                        };
                                        /** @description When, Unix ms */
                                        timestamp: number;
                                        /** @description Who made the change */
                                        userId: string;
                                    }[];
                                    createdAt: number;
                                    deletedAt?: number;
                                    id: string;
                                    revision: number;
                                    /** @description Unix ms of the last write; writes in one millisecond share it */
                                    updatedAt: number;
                                } & {
                                    [key: string]: unknown;
                                };
                                currentRevision: number;
                                /** @description Per path the modifier touches: base, theirs and mine */
                                fields: {
                                    /** @description The value at the client’s baseRevision (absent: no value) */
                                    base?: unknown;
                                    /** @description The value the client’s modifier gives on its base (absent: removed) */
                                    mine?: unknown;
                                    /** @description The modifier path, e.g. title or address.city */
                                    path: string;
                                    /** @description Whether a change since the base touched this path (or one inside or around it) */
                                    serverTouched: boolean;
                                    /** @description The value on the server now (absent: no value) */
                                    theirs?: unknown;
                                }[];
                            } | {
                                baseRevision: number;
                                currentRevision: number;
                                /** @enum {string} */
                                reason: "baseRevision does not exist";
                            };
                            error: string;
                        } | {
                            /** @enum {string} */
                            code: "DATA_LOCAL_ONLY_TYPE";
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/projects/{projectId}/ai-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Turn AI features on or off for the project
         * @description Needs the project's RLS update permission. AI is off for new projects.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        aiEnabled: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            /** @enum {boolean} */
                            success: false;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/projects/{projectId}/applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List entities; with updatedAt, pull every change after that time (deleted ones as tombstones: id, revision, timestamps, deletedAt, access) */
        get: {
            parameters: {
                query?: {
                    /** @description From the previous page, to continue it (optional: updatedAt alone is as safe) */
                    cursor?: string;
                    /** @description true, false, 1 or 0 */
                    includeChanges?: "0" | "1" | "true" | "false";
                    /** @description Items per page; a page runs over it to finish its last millisecond */
                    limit?: number;
                    /** @description 0 returns all; otherwise entities modified after this time, deleted ones included as tombstones. Pulling again from the largest updatedAt seen misses nothing */
                    updatedAt?: number;
                };
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present when more items follow; pass it back to continue. An optimisation: pulling again from the largest updatedAt of the page misses nothing either */
                            cursor?: string;
                            /** @description In (updatedAt, id) order. A page never ends inside a millisecond: with more to come it holds at least limit items, then all that share its last updatedAt */
                            items: (({
                                /** @description The change history, oldest first (with includeChanges, and on writes) */
                                changes?: {
                                    /** @description The revision the change was made on; -1 for the creation */
                                    baseRevision: number;
                                    /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                    modifier: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description When, Unix ms */
                                    timestamp: number;
                                    /** @description Who made the change */
                                    userId: string;
                                }[];
                                createdAt: number;
                                deletedAt?: number;
                                id: string;
                                revision: number;
                                /** @description Unix ms of the last write; writes in one millisecond share it */
                                updatedAt: number;
                            } & {
                                [key: string]: unknown;
                            }) | {
                                access?: {
                                    delete?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    read?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    update?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                };
                                createdAt: number;
                                deletedAt: number;
                                id: string;
                                revision: number;
                                updatedAt: number;
                            })[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an entity (the complete document with changes in the answer) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            /** @description The full entity; id is generated when absent */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/applications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One entity */
        get: {
            parameters: {
                query?: {
                    /** @description true, false, 1 or 0 */
                    includeChanges?: "0" | "1" | "true" | "false";
                };
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Soft-delete an entity */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Apply an update modifier if the entity is still at baseRevision (409 with conflict details otherwise) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        baseRevision: number;
                        modifier: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "DATA_REVISION_CONFLICT";
                            details: {
                                baseRevision: number;
                                /** @description The changes after baseRevision, oldest first */
                                changesSince: {
                                    /** @description The revision the change was made on; -1 for the creation */
                                    baseRevision: number;
                                    /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                    modifier: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description When, Unix ms */
                                    timestamp: number;
                                    /** @description Who made the change */
                                    userId: string;
                                }[];
                                /** @description The entity on the server now */
                                current: {
                                    /** @description The change history, oldest first (with includeChanges, and on writes) */
                                    changes?: {
                                        /** @description The revision the change was made on; -1 for the creation */
                                        baseRevision: number;
                                        /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                        modifier: {
                                            [key: string]: {
                                                [key: string]: unknown;
                                            };
                                        };
                                        /** @description When, Unix ms */
                                        timestamp: number;
                                        /** @description Who made the change */
                                        userId: string;
                                    }[];
                                    createdAt: number;
                                    deletedAt?: number;
                                    id: string;
                                    revision: number;
                                    /** @description Unix ms of the last write; writes in one millisecond share it */
                                    updatedAt: number;
                                } & {
                                    [key: string]: unknown;
                                };
                                currentRevision: number;
                                /** @description Per path the modifier touches: base, theirs and mine */
                                fields: {
                                    /** @description The value at the client’s baseRevision (absent: no value) */
                                    base?: unknown;
                                    /** @description The value the client’s modifier gives on its base (absent: removed) */
                                    mine?: unknown;
                                    /** @description The modifier path, e.g. title or address.city */
                                    path: string;
                                    /** @description Whether a change since the base touched this path (or one inside or around it) */
                                    serverTouched: boolean;
                                    /** @description The value on the server now (absent: no value) */
                                    theirs?: unknown;
                                }[];
                            } | {
                                baseRevision: number;
                                currentRevision: number;
                                /** @enum {string} */
                                reason: "baseRevision does not exist";
                            };
                            error: string;
                        } | {
                            /** @enum {string} */
                            code: "DATA_LOCAL_ONLY_TYPE";
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/projects/{projectId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's pending invitations
         * @description Needs the project's RLS update permission.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: number;
                                /** @description Unix ms; a pending invitation lapses 14 days after it was last sent */
                                expiresAt: number;
                                id: string;
                                invitedBy: string;
                                /** @enum {string} */
                                kind: "project";
                                /** @description Scoped `{projectId}::name`; the member gets them on accepting */
                                permissions: string[];
                                projectId: string;
                                /** @description The invited user; an id nobody has gets an invitation nobody ever sees */
                                userId: string;
                            }[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Withdraw a pending invitation
         * @description Needs the project's RLS update permission.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    invitationId: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Withdrawn */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's members */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: number;
                                permissions: string[];
                                projectId: string;
                                /** @enum {string} */
                                role: "owner" | "member";
                                userId: string;
                            }[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Invite a user to the project, or replace a member's permissions
         * @description Needs the project's RLS update permission. A user who is not a member yet gets a pending invitation (202) and becomes a member only by accepting it (`POST /api/me/invitations/{invitationId}/accept`); the answer is the same whether or not the user id exists. A member's permissions are replaced (200). Permission names are scoped `{projectId}::name`; a name scoped to another project is refused.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default [] */
                        permissions?: string[];
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: number;
                            permissions: string[];
                            projectId: string;
                            /** @enum {string} */
                            role: "owner" | "member";
                            userId: string;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: number;
                            /** @description Unix ms; a pending invitation lapses 14 days after it was last sent */
                            expiresAt: number;
                            id: string;
                            invitedBy: string;
                            /** @enum {string} */
                            kind: "project";
                            /** @description Scoped `{projectId}::name`; the member gets them on accepting */
                            permissions: string[];
                            projectId: string;
                            /** @description The invited user; an id nobody has gets an invitation nobody ever sees */
                            userId: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (members may also remove themselves) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List entities; with updatedAt, pull every change after that time (deleted ones as tombstones: id, revision, timestamps, deletedAt, access) */
        get: {
            parameters: {
                query?: {
                    /** @description From the previous page, to continue it (optional: updatedAt alone is as safe) */
                    cursor?: string;
                    /** @description true, false, 1 or 0 */
                    includeChanges?: "0" | "1" | "true" | "false";
                    /** @description Items per page; a page runs over it to finish its last millisecond */
                    limit?: number;
                    /** @description 0 returns all; otherwise entities modified after this time, deleted ones included as tombstones. Pulling again from the largest updatedAt seen misses nothing */
                    updatedAt?: number;
                };
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present when more items follow; pass it back to continue. An optimisation: pulling again from the largest updatedAt of the page misses nothing either */
                            cursor?: string;
                            /** @description In (updatedAt, id) order. A page never ends inside a millisecond: with more to come it holds at least limit items, then all that share its last updatedAt */
                            items: (({
                                /** @description The change history, oldest first (with includeChanges, and on writes) */
                                changes?: {
                                    /** @description The revision the change was made on; -1 for the creation */
                                    baseRevision: number;
                                    /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                    modifier: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description When, Unix ms */
                                    timestamp: number;
                                    /** @description Who made the change */
                                    userId: string;
                                }[];
                                createdAt: number;
                                deletedAt?: number;
                                id: string;
                                revision: number;
                                /** @description Unix ms of the last write; writes in one millisecond share it */
                                updatedAt: number;
                            } & {
                                [key: string]: unknown;
                            }) | {
                                access?: {
                                    delete?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    read?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    update?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                };
                                createdAt: number;
                                deletedAt: number;
                                id: string;
                                revision: number;
                                updatedAt: number;
                            })[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an entity (the complete document with changes in the answer) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            /** @description The full entity; id is generated when absent */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types.d.ts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** TypeScript declarations (an interface per type, ProjectTypes by type id) for the types the caller may read */
        get: {
            parameters: {
                query?: {
                    /** @description Comma-separated type ids to declare; all readable types when absent */
                    types?: string;
                };
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A TypeScript declarations file (application/typescript) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One entity */
        get: {
            parameters: {
                query?: {
                    /** @description true, false, 1 or 0 */
                    includeChanges?: "0" | "1" | "true" | "false";
                };
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Soft-delete an entity */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Apply an update modifier if the entity is still at baseRevision (409 with conflict details otherwise) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        baseRevision: number;
                        modifier: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "DATA_REVISION_CONFLICT";
                            details: {
                                baseRevision: number;
                                /** @description The changes after baseRevision, oldest first */
                                changesSince: {
                                    /** @description The revision the change was made on; -1 for the creation */
                                    baseRevision: number;
                                    /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                    modifier: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description When, Unix ms */
                                    timestamp: number;
                                    /** @description Who made the change */
                                    userId: string;
                                }[];
                                /** @description The entity on the server now */
                                current: {
                                    /** @description The change history, oldest first (with includeChanges, and on writes) */
                                    changes?: {
                                        /** @description The revision the change was made on; -1 for the creation */
                                        baseRevision: number;
                                        /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                        modifier: {
                                            [key: string]: {
                                                [key: string]: unknown;
                                            };
                                        };
                                        /** @description When, Unix ms */
                                        timestamp: number;
                                        /** @description Who made the change */
                                        userId: string;
                                    }[];
                                    createdAt: number;
                                    deletedAt?: number;
                                    id: string;
                                    revision: number;
                                    /** @description Unix ms of the last write; writes in one millisecond share it */
                                    updatedAt: number;
                                } & {
                                    [key: string]: unknown;
                                };
                                currentRevision: number;
                                /** @description Per path the modifier touches: base, theirs and mine */
                                fields: {
                                    /** @description The value at the client’s baseRevision (absent: no value) */
                                    base?: unknown;
                                    /** @description The value the client’s modifier gives on its base (absent: removed) */
                                    mine?: unknown;
                                    /** @description The modifier path, e.g. title or address.city */
                                    path: string;
                                    /** @description Whether a change since the base touched this path (or one inside or around it) */
                                    serverTouched: boolean;
                                    /** @description The value on the server now (absent: no value) */
                                    theirs?: unknown;
                                }[];
                            } | {
                                baseRevision: number;
                                currentRevision: number;
                                /** @enum {string} */
                                reason: "baseRevision does not exist";
                            };
                            error: string;
                        } | {
                            /** @enum {string} */
                            code: "DATA_LOCAL_ONLY_TYPE";
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/projects/{projectId}/types/{typeId}/ai-extract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Extract a document of the type from text (or from another document) with the AI model, validated by the type schema */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Instead of text: a document whose content is the source */
                        documentId?: string;
                        /** @description Field of that document holding the text (default: the whole document as JSON) */
                        field?: string;
                        /** @description Type of documentId (default: the type extracted into) */
                        sourceTypeId?: string;
                        /** @description The text to extract a document from */
                        text?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description AI is disabled for the project (message in German for users whose language is de) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description The AI provider failed or answered something unusable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description No AI provider is configured on this server */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description The AI provider did not answer in time */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types/{typeId}/batch-rls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the RLS permissions of many entities of a type (dryRun previews) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        action: "setPermission" | "removePermission" | "addUserId" | "removeUserId" | "resetToDefault";
                        dryRun?: boolean;
                        filter?: {
                            /** @enum {string} */
                            rlsOperation?: "read" | "update" | "delete";
                            rlsPermission?: string;
                            rlsUserId?: string;
                        };
                        /** @description Also target soft-deleted entities (they keep their content in the store), e.g. to restrict who may still read them; the answer then has deletedCount */
                        includeDeleted?: boolean;
                        operations?: ("read" | "update" | "delete")[];
                        permission?: string;
                        userId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: string;
                            /** @description With includeDeleted: how many of the matching entities are deleted */
                            deletedCount?: number;
                            dryRun: boolean;
                            matchingCount: number;
                            modifiedCount?: number;
                            operations: string[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types/{typeId}/data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List entities; with updatedAt, pull every change after that time (deleted ones as tombstones: id, revision, timestamps, deletedAt, access) */
        get: {
            parameters: {
                query?: {
                    /** @description From the previous page, to continue it (optional: updatedAt alone is as safe) */
                    cursor?: string;
                    /** @description true, false, 1 or 0 */
                    includeChanges?: "0" | "1" | "true" | "false";
                    /** @description Items per page; a page runs over it to finish its last millisecond */
                    limit?: number;
                    /** @description 0 returns all; otherwise entities modified after this time, deleted ones included as tombstones. Pulling again from the largest updatedAt seen misses nothing */
                    updatedAt?: number;
                };
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present when more items follow; pass it back to continue. An optimisation: pulling again from the largest updatedAt of the page misses nothing either */
                            cursor?: string;
                            /** @description In (updatedAt, id) order. A page never ends inside a millisecond: with more to come it holds at least limit items, then all that share its last updatedAt */
                            items: (({
                                /** @description The change history, oldest first (with includeChanges, and on writes) */
                                changes?: {
                                    /** @description The revision the change was made on; -1 for the creation */
                                    baseRevision: number;
                                    /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                    modifier: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description When, Unix ms */
                                    timestamp: number;
                                    /** @description Who made the change */
                                    userId: string;
                                }[];
                                createdAt: number;
                                deletedAt?: number;
                                id: string;
                                revision: number;
                                /** @description Unix ms of the last write; writes in one millisecond share it */
                                updatedAt: number;
                            } & {
                                [key: string]: unknown;
                            }) | {
                                access?: {
                                    delete?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    read?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    update?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                };
                                createdAt: number;
                                deletedAt: number;
                                id: string;
                                revision: number;
                                updatedAt: number;
                            })[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an entity (the complete document with changes in the answer) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            /** @description The full entity; id is generated when absent */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types/{typeId}/data/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One entity */
        get: {
            parameters: {
                query?: {
                    /** @description true, false, 1 or 0 */
                    includeChanges?: "0" | "1" | "true" | "false";
                };
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Soft-delete an entity */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Apply an update modifier if the entity is still at baseRevision (409 with conflict details otherwise) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        baseRevision: number;
                        modifier: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The change history, oldest first (with includeChanges, and on writes) */
                            changes?: {
                                /** @description The revision the change was made on; -1 for the creation */
                                baseRevision: number;
                                /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                modifier: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description When, Unix ms */
                                timestamp: number;
                                /** @description Who made the change */
                                userId: string;
                            }[];
                            createdAt: number;
                            deletedAt?: number;
                            id: string;
                            revision: number;
                            /** @description Unix ms of the last write; writes in one millisecond share it */
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "DATA_REVISION_CONFLICT";
                            details: {
                                baseRevision: number;
                                /** @description The changes after baseRevision, oldest first */
                                changesSince: {
                                    /** @description The revision the change was made on; -1 for the creation */
                                    baseRevision: number;
                                    /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                    modifier: {
                                        [key: string]: {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description When, Unix ms */
                                    timestamp: number;
                                    /** @description Who made the change */
                                    userId: string;
                                }[];
                                /** @description The entity on the server now */
                                current: {
                                    /** @description The change history, oldest first (with includeChanges, and on writes) */
                                    changes?: {
                                        /** @description The revision the change was made on; -1 for the creation */
                                        baseRevision: number;
                                        /** @description The update modifier the change applied, e.g. { "$set": { "title": "x" } } */
                                        modifier: {
                                            [key: string]: {
                                                [key: string]: unknown;
                                            };
                                        };
                                        /** @description When, Unix ms */
                                        timestamp: number;
                                        /** @description Who made the change */
                                        userId: string;
                                    }[];
                                    createdAt: number;
                                    deletedAt?: number;
                                    id: string;
                                    revision: number;
                                    /** @description Unix ms of the last write; writes in one millisecond share it */
                                    updatedAt: number;
                                } & {
                                    [key: string]: unknown;
                                };
                                currentRevision: number;
                                /** @description Per path the modifier touches: base, theirs and mine */
                                fields: {
                                    /** @description The value at the client’s baseRevision (absent: no value) */
                                    base?: unknown;
                                    /** @description The value the client’s modifier gives on its base (absent: removed) */
                                    mine?: unknown;
                                    /** @description The modifier path, e.g. title or address.city */
                                    path: string;
                                    /** @description Whether a change since the base touched this path (or one inside or around it) */
                                    serverTouched: boolean;
                                    /** @description The value on the server now (absent: no value) */
                                    theirs?: unknown;
                                }[];
                            } | {
                                baseRevision: number;
                                currentRevision: number;
                                /** @enum {string} */
                                reason: "baseRevision does not exist";
                            };
                            error: string;
                        } | {
                            /** @enum {string} */
                            code: "DATA_LOCAL_ONLY_TYPE";
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/projects/{projectId}/types/{typeId}/data/readable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Which of the given entity ids the caller may still read (for sync clients dropping copies after lost access) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The entity ids a client holds copies of (at most 1000) */
                        ids: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The given ids the caller may read now (deleted entities included, as pulls include their tombstones) */
                            readable: string[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types/{typeId}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore a deleted type with its documents (needs the update permission on the project) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The restored type with all its changes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            changes: unknown[];
                            createdAt: number;
                            id: string;
                            revision: number;
                            updatedAt: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types/{typeId}/sample-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Realistic sample documents generated from the type schema (nothing is stored) */
        get: {
            parameters: {
                query?: {
                    count?: number;
                    seed?: number;
                };
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": "Unauthorized";
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create sample documents from the type schema */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default 5 */
                        count?: number;
                        seed?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": "Unauthorized";
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{projectId}/types/{typeId}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The type's JSON Schema */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            projectId: string;
                            /** @description The type's JSON Schema (draft 2020-12); a type stored in the old dialect answers its JSON Schema equivalent */
                            schema: {
                                /** @enum {string} */
                                type: "object";
                            } & {
                                [key: string]: unknown;
                            };
                            typeId: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": "Unauthorized";
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/realtime/projects/{projectId}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-Sent Events of project:{projectId}:sync: one `sync` event per changed entity the member may read */
        get: {
            parameters: {
                query?: {
                    /** @description From /api/realtime/token; a session works too */
                    token?: string;
                };
                header?: never;
                path: {
                    projectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/realtime/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A token to open the sync stream; 503 when realtime is disabled (clients poll instead) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: number;
                            /** @description Clients still pull this often while notifications flow */
                            heartbeatMs: number;
                            /** @description Open within expiresAt with ?token=; {projectId} is the project to subscribe to */
                            streamPath: string;
                            token: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schemas/projects/{projectId}/types/{typeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The type's JSON Schema */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    projectId: string;
                    typeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            projectId: string;
                            /** @description The type's JSON Schema (draft 2020-12); a type stored in the old dialect answers its JSON Schema equivalent */
                            schema: {
                                /** @enum {string} */
                                type: "object";
                            } & {
                                [key: string]: unknown;
                            };
                            typeId: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": "Unauthorized";
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's tenants with its role in each (its personal tenant first) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: number;
                                createdBy: string;
                                id: string;
                                name: string;
                                /** @description A user's own tenant, created with the account; it has no other members */
                                personal: boolean;
                                /**
                                 * @description The caller's role in the tenant
                                 * @enum {string}
                                 */
                                role: "admin" | "member";
                                updatedAt: number;
                            }[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a tenant; the caller becomes its admin */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: number;
                            createdBy: string;
                            id: string;
                            name: string;
                            /** @description A user's own tenant, created with the account; it has no other members */
                            personal: boolean;
                            /**
                             * @description The caller's role in the tenant
                             * @enum {string}
                             */
                            role: "admin" | "member";
                            updatedAt: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/{tenantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One tenant (members only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tenantId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: number;
                            createdBy: string;
                            id: string;
                            name: string;
                            /** @description A user's own tenant, created with the account; it has no other members */
                            personal: boolean;
                            /**
                             * @description The caller's role in the tenant
                             * @enum {string}
                             */
                            role: "admin" | "member";
                            updatedAt: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename a tenant (admins) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tenantId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: number;
                            createdBy: string;
                            id: string;
                            name: string;
                            /** @description A user's own tenant, created with the account; it has no other members */
                            personal: boolean;
                            updatedAt: number;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/tenants/{tenantId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's pending invitations (admins) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tenantId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: number;
                                /** @description Unix ms; a pending invitation lapses 14 days after it was last sent */
                                expiresAt: number;
                                id: string;
                                invitedBy: string;
                                /** @enum {string} */
                                kind: "tenant";
                                /** @enum {string} */
                                role: "admin" | "member";
                                tenantId: string;
                                /** @description The invited user; an id nobody has gets an invitation nobody ever sees */
                                userId: string;
                            }[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/{tenantId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw a pending invitation (admins) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    invitationId: string;
                    tenantId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Withdrawn */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/{tenantId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's members (members only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tenantId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: number;
                                /** @enum {string} */
                                role: "admin" | "member";
                                tenantId: string;
                                userId: string;
                            }[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/{tenantId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Invite a user to the tenant, or change a member's role (admins)
         * @description A user who is not a member yet gets a pending invitation (202) and becomes a member only by accepting it (`POST /api/me/invitations/{invitationId}/accept`); the answer is the same whether or not the user id exists. A member's role is changed (200). A personal tenant takes no other members (409); the last admin cannot be made a member (409).
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tenantId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        role: "admin" | "member";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: number;
                            /** @enum {string} */
                            role: "admin" | "member";
                            tenantId: string;
                            userId: string;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: number;
                            /** @description Unix ms; a pending invitation lapses 14 days after it was last sent */
                            expiresAt: number;
                            id: string;
                            invitedBy: string;
                            /** @enum {string} */
                            kind: "tenant";
                            /** @enum {string} */
                            role: "admin" | "member";
                            tenantId: string;
                            /** @description The invited user; an id nobody has gets an invitation nobody ever sees */
                            userId: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        post?: never;
        /**
         * Remove a member from the tenant and all its projects (admins; members may leave)
         * @description Projects the removed user owns pass to the admin who removes them (or, when an admin leaves, to another admin). The last admin cannot leave (409).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tenantId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/{tenantId}/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's projects: all of them for admins, the caller's own for members */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tenantId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                access?: {
                                    delete?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    read?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                    update?: {
                                        permission?: string;
                                        userIds?: string[];
                                    };
                                };
                                aiEnabled: boolean;
                                createdAt: number;
                                id: string;
                                name: string;
                                ownerId: string;
                                revision: number;
                                /** @description The owning tenant; absent only on projects older than tenants */
                                tenantId?: string;
                                updatedAt: number;
                            }[];
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's profile, as far as its privacy lets the caller see it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Absent when the displayName profile field is hidden from the caller */
                            displayName?: string;
                            id: string;
                            profileFields: {
                                [key: string]: {
                                    /** @enum {string} */
                                    privacy: "public" | "projects" | "private";
                                    value?: unknown;
                                };
                            };
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{userId}/avatar.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Initials avatar (SVG) from the name fields the caller may see */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{userId}/avatar/url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The URL of a user's avatar
         * @description The user's own avatar URL when set, else the deterministic initials image served at /api/users/{userId}/avatar.svg.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            url: string;
                        };
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/widgets/llm.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every catalogue widget with its configuration properties, types and defaults (for agents) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/plain; charset=utf-8 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/llm.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the platform is, how to sign in and sync, where the guides and the widget catalogue are (for agents) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/plain; charset=utf-8 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Stable machine-readable code, e.g. DATA_REVISION_CONFLICT */
                            code: string;
                            details?: unknown;
                            /** @description Human-readable message */
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;

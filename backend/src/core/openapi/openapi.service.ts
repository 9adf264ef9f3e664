import { Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ApiErrorSchema } from '@life/contracts';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { CONTRACT_KEY, type ContractSpec } from '../http/contract.js';

export interface RouteInfo {
  method: string;
  path: string;
  spec: ContractSpec | undefined;
  controller: string;
  handler: string;
  /** The controller class and handler function, for metadata checks (the access sweep). */
  targets: [object, object];
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input',
  401: 'No valid session',
  403: 'Not allowed for this role',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Too large',
  429: 'Too many requests',
  503: 'Not available',
};

function joinPath(...parts: (string | undefined)[]): string {
  const joined = parts
    .flatMap((part) => (part ?? '').split('/'))
    .filter(Boolean)
    .join('/');
  return `/${joined}`;
}

/** Walks Nest's controllers: the source of the OpenAPI document and of the access sweep. */
@Injectable()
export class OpenApiService {
  private document: ReturnType<typeof createDocument> | undefined;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  routes(): RouteInfo[] {
    const routes: RouteInfo[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || !wrapper.metatype) continue;
      const prefix = this.reflector.get<string | string[]>(PATH_METADATA, wrapper.metatype);
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as object;
        const methodPath = this.reflector.get<string | string[] | undefined>(PATH_METADATA, handler as never);
        const method = this.reflector.get<RequestMethod | undefined>(METHOD_METADATA, handler as never);
        if (methodPath === undefined || method === undefined) continue;
        const prefixes = Array.isArray(prefix) ? prefix : [prefix];
        const paths = Array.isArray(methodPath) ? methodPath : [methodPath];
        for (const p of prefixes) {
          for (const m of paths) {
            routes.push({
              method: RequestMethod[method],
              path: joinPath(p, m),
              spec: this.reflector.get<ContractSpec | undefined>(CONTRACT_KEY, handler as never),
              controller: wrapper.metatype.name,
              handler: name,
              targets: [handler, wrapper.metatype],
            });
          }
        }
      }
    }
    return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  }

  build(version: string) {
    if (this.document) return this.document;
    const paths: ZodOpenApiPathsObject = {};
    for (const route of this.routes()) {
      const spec = route.spec;
      if (!spec) continue;
      const openApiPath = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const operation: ZodOpenApiOperationObject = {
        summary: spec.summary,
        tags: spec.tags,
        operationId: spec.operationId ?? `${route.controller}_${route.handler}`,
        security: spec.access === 'public' ? [] : spec.access === 'app' ? [{ appToken: [] }] : [{ bearer: [] }],
        ...(spec.access === 'admin' ? { description: 'Admin only.' } : {}),
        requestParams: {
          ...(spec.params ? { path: spec.params as never } : {}),
          ...(spec.query ? { query: spec.query as never } : {}),
        },
        ...(spec.body
          ? { requestBody: { content: { [spec.bodyEncoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json']: { schema: spec.body } } } }
          : {}),
        responses: {
          [String(spec.successStatus ?? 200)]: spec.response
            ? { description: 'Success', content: { 'application/json': { schema: spec.response } } }
            : { description: spec.produces ?? 'Success' },
          ...Object.fromEntries(
            [
              ...new Set([
                ...(spec.errors ?? []),
                ...(spec.body || spec.query || spec.params ? [400] : []),
                ...(spec.access !== 'public' ? [401] : []),
                ...(spec.access === 'admin' ? [403] : []),
              ]),
            ].map((status) => [String(status), { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: ApiErrorSchema } } }]),
          ),
        },
      };
      const method = route.method.toLowerCase() as 'get';
      paths[openApiPath] = { ...(paths[openApiPath] ?? {}), [method]: operation };
    }
    this.document = createDocument({
      openapi: '3.1.0',
      info: {
        title: 'Life API',
        version,
        description: 'Conecta tu vida y aprovéchala cada día. Errors are JSON `{ error, message }`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'authToken from sign-in' },
          appToken: { type: 'http', scheme: 'bearer', description: 'An access token issued to a third-party app by /oauth/token' },
        },
      },
      paths,
    });
    return this.document;
  }
}

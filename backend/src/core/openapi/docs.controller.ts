import { Controller, Get, Header, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { Contract } from '../http/contract.js';
import { Public } from '../http/public.decorator.js';
import { OpenApiService } from './openapi.service.js';

const PAGE = `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<title>Life API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>`;

// Served as a file, not inline, so the page works under a strict Content-Security-Policy.
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#swagger-ui' });`;

@Controller('api/docs')
export class DocsController {
  constructor(
    private readonly openApi: OpenApiService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @Header('content-type', 'text/html; charset=utf-8')
  @Contract({ summary: 'Interactive API documentation', tags: ['docs'], access: 'public', produces: 'HTML page' })
  page(): string {
    return PAGE;
  }

  @Get('init.js')
  @Public()
  @Header('content-type', 'text/javascript; charset=utf-8')
  init(): string {
    return INIT;
  }

  @Get('openapi.json')
  @Public()
  @Contract({ summary: 'The OpenAPI 3.1 document of this API', tags: ['docs'], access: 'public', produces: 'OpenAPI document (JSON)' })
  document() {
    return this.openApi.build(this.config.version);
  }
}

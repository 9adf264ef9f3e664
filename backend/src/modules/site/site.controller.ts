import { Controller, Get, Inject } from '@nestjs/common';
import { SiteInfoSchema, type SiteInfo } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { Contract } from '../../core/http/contract.js';
import { Public } from '../../core/http/public.decorator.js';

@Controller('api/site')
export class SiteController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @Public()
  @Contract({ summary: 'Company details quoted by the legal pages', tags: ['site'], access: 'public', response: SiteInfoSchema })
  info(): SiteInfo {
    return { company: this.config.company, version: this.config.version };
  }
}

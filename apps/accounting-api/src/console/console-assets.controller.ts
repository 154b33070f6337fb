import * as fs from 'node:fs';
import * as path from 'node:path';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { NotFound } from '@app/domain';
import { Public } from '../auth/access.decorator';

/** The console's static files, read once at start: a fixed list, no path from the request reaches the disk. */
const ASSETS: Record<string, string> = {
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  'favicon.ico': 'image/x-icon',
};

function load(): Map<string, Buffer> {
  const dir = path.join(__dirname, 'assets');
  return new Map(Object.keys(ASSETS).map((name) => [name, fs.readFileSync(path.join(dir, name))]));
}

/**
 * The console's stylesheet, script and icon (the CSP allows scripts, styles and images from the
 * service only). They hold no data, so they are served without a session, like the sign-in page
 * that uses them. `/favicon.ico` is the icon where browsers look for it unasked (on the API's own
 * pages, the docs, a JSON response opened in a tab).
 */
@ApiExcludeController()
@Controller()
export class ConsoleAssetsController {
  private readonly files = load();

  @Get('console/assets/:name')
  @Public()
  asset(@Param('name') name: string, @Res() response: Response): void {
    const file = this.files.get(name);
    if (!file || !Object.hasOwn(ASSETS, name)) throw new NotFound('console asset', name);
    response
      .status(200)
      .set({
        'Content-Type': ASSETS[name],
        'Cache-Control': 'public, max-age=300',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(file);
  }

  @Get('favicon.ico')
  @Public()
  favicon(@Res() response: Response): void {
    this.asset('favicon.ico', response);
  }
}

import type { AuthContext } from '../auth/service';

export interface AppEnv {
  Variables: {
    auth: AuthContext | null;
    requestId: string;
  };
}

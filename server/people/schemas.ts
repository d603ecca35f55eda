/** Route schemas of the people area that only the server needs (the shared ones are in shared/). */
import { z } from 'zod';
import { PEOPLE_MESSAGES } from '../../shared/people';
import { idParam, idParamOf, orderingQuery, pageQuery, searchQuery } from '../http/schemas';

export const tags = ['people'];

export const userListQuery = pageQuery.extend(orderingQuery.shape).extend(searchQuery.shape);
export const groupListQuery = pageQuery.extend(orderingQuery.shape);

export const userGroupParams = z.object({ id: idParam, group_id: idParamOf(PEOPLE_MESSAGES.groupNotFound) });

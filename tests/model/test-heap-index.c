/* test-heap-index.c — dominator children, retainers, retainer paths, types,
 * and two heaps compared
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-heap-index.h"
#include "bl-heap-private.h"

/* root R → A (a), R → B (b), A → C (c), B → C (c), C → D (d), A → E (e);
 * X unreachable; sizes make the order of R's children B, A */
static BlHeap *
make_heap (guint32 *o)
{
  BlHeap *heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Node");
  guint32 u = bl_heap_add_type (heap, "Leaf");
  const char *names[] = { "a", "b", "c", "d", "e" };
  guint32 f[5];
  guint64 sizes[] = { 1, 2, 40, 4, 8, 16, 32 };   /* R A B C D E X */

  bl_heap_add_type (heap, "Unused");
  for (guint i = 0; i < 5; i++)
    f[i] = bl_heap_intern_field (heap, names[i]);
  for (guint i = 0; i < 7; i++)
    o[i] = bl_heap_add_object (heap, i == 4 || i == 5 ? u : t, sizes[i]);
  bl_heap_add_reference (heap, o[0], f[0], o[1]);
  bl_heap_add_reference (heap, o[0], f[1], o[2]);
  bl_heap_add_reference (heap, o[1], f[2], o[3]);
  bl_heap_add_reference (heap, o[2], f[2], o[3]);
  bl_heap_add_reference (heap, o[3], f[3], o[4]);
  bl_heap_add_reference (heap, o[1], f[4], o[5]);
  bl_heap_add_reference (heap, o[6], f[0], o[1]);
  bl_heap_add_root (heap, o[0]);
  for (guint i = 0; i < 7; i++)
    bl_heap_set_object_id (heap, o[i], 1000 + i);
  bl_heap_finish (heap);

  return heap;
}

static void
test_children (void)
{
  guint32 o[7];
  g_autoptr (BlHeap) heap = make_heap (o);
  g_autoptr (BlHeapIndex) index = NULL;
  const guint32 *children;
  int progress = -1;

  index = bl_heap_index_new (heap, NULL, &progress);
  g_assert_nonnull (index);
  g_assert_cmpint (progress, ==, 1000);

  g_assert_cmpuint (bl_heap_index_get_children (index, BL_HEAP_NONE, &children), ==, 1);
  g_assert_cmpuint (children[0], ==, o[0]);

  /* R dominates A, B and C (two paths lead to C); largest retained
   * first: B 40, A 2 + 16, C 4 + 8 */
  g_assert_cmpuint (bl_heap_index_get_children (index, o[0], &children), ==, 3);
  g_assert_cmpuint (children[0], ==, o[2]);
  g_assert_cmpuint (children[1], ==, o[1]);
  g_assert_cmpuint (children[2], ==, o[3]);
  g_assert_cmpuint (bl_heap_index_get_child_position (index, o[3]), ==, 2);
  g_assert_cmpuint (bl_heap_index_get_child_position (index, o[1]), ==, 1);

  g_assert_cmpuint (bl_heap_index_get_children (index, o[1], &children), ==, 1);
  g_assert_cmpuint (children[0], ==, o[5]);
  g_assert_cmpuint (bl_heap_index_get_children (index, o[3], &children), ==, 1);
  g_assert_cmpuint (children[0], ==, o[4]);
  /* the unreachable object is nobody's child */
  g_assert_cmpuint (bl_heap_index_get_children (index, o[6], &children), ==, 0);
  g_assert_cmpuint (bl_heap_index_get_children (index, o[4], &children), ==, 0);
}

static void
test_retainers (void)
{
  guint32 o[7];
  g_autoptr (BlHeap) heap = make_heap (o);
  g_autoptr (BlHeapIndex) index = bl_heap_index_new (heap, NULL, NULL);
  const guint32 *from, *fields;

  /* A is referenced by R (a) and by the unreachable X (a), in object order */
  g_assert_cmpuint (bl_heap_index_get_retainers (index, o[1], &from, &fields), ==, 2);
  g_assert_cmpuint (from[0], ==, o[0]);
  g_assert_cmpstr (bl_heap_get_field_name (heap, fields[0]), ==, "a");
  g_assert_cmpuint (from[1], ==, o[6]);

  g_assert_cmpuint (bl_heap_index_get_retainers (index, o[3], &from, &fields), ==, 2);
  g_assert_cmpuint (from[0], ==, o[1]);
  g_assert_cmpuint (from[1], ==, o[2]);
  g_assert_cmpuint (bl_heap_index_get_retainers (index, o[0], &from, &fields), ==, 0);
}

static void
test_retainer_path (void)
{
  guint32 o[7];
  g_autoptr (BlHeap) heap = make_heap (o);
  g_autoptr (BlHeapIndex) index = bl_heap_index_new (heap, NULL, NULL);
  g_autofree BlHeapStep *path = NULL;
  g_autofree BlHeapStep *root_path = NULL;
  g_autofree BlHeapStep *none = NULL;
  guint n;

  /* D: R →a A →c C →d D (A before B: the first retainer in object order) */
  path = bl_heap_index_dup_retainer_path (index, o[4], &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (path[0].object, ==, o[0]);
  g_assert_cmpuint (path[0].field, ==, BL_HEAP_NONE);
  g_assert_cmpuint (path[1].object, ==, o[1]);
  g_assert_cmpstr (bl_heap_get_field_name (heap, path[1].field), ==, "a");
  g_assert_cmpuint (path[2].object, ==, o[3]);
  g_assert_cmpstr (bl_heap_get_field_name (heap, path[2].field), ==, "c");
  g_assert_cmpuint (path[3].object, ==, o[4]);
  g_assert_cmpstr (bl_heap_get_field_name (heap, path[3].field), ==, "d");

  root_path = bl_heap_index_dup_retainer_path (index, o[0], &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (root_path[0].object, ==, o[0]);

  none = bl_heap_index_dup_retainer_path (index, o[6], &n);
  g_assert_null (none);
  g_assert_cmpuint (n, ==, 0);
}

/* the shortest path wins over the first one found in a depth-first order */
static void
test_retainer_path_shortest (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  g_autoptr (BlHeapIndex) index = NULL;
  g_autofree BlHeapStep *path = NULL;
  guint32 t = bl_heap_add_type (heap, "T");
  guint32 f = bl_heap_intern_field (heap, "long");
  guint32 g = bl_heap_intern_field (heap, "short");
  guint32 o[6];
  guint n;

  for (guint i = 0; i < 6; i++)
    o[i] = bl_heap_add_object (heap, t, 1);
  /* root 0 → 1 → 2 → 3 → 5 (long), root 0 → 4 → 5 (short) */
  bl_heap_add_reference (heap, o[0], f, o[1]);
  bl_heap_add_reference (heap, o[1], f, o[2]);
  bl_heap_add_reference (heap, o[2], f, o[3]);
  bl_heap_add_reference (heap, o[3], f, o[5]);
  bl_heap_add_reference (heap, o[0], g, o[4]);
  bl_heap_add_reference (heap, o[4], g, o[5]);
  bl_heap_add_root (heap, o[0]);
  bl_heap_finish (heap);
  index = bl_heap_index_new (heap, NULL, NULL);

  path = bl_heap_index_dup_retainer_path (index, o[5], &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (path[1].object, ==, o[4]);
  g_assert_cmpuint (path[2].field, ==, g);
}

/* an object two roots reference is dominated by the root set alone, but
 * it is no root: the path goes on to the first root that references it */
static void
test_retainer_path_real_root (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  g_autoptr (BlHeapIndex) index = NULL;
  g_autofree BlHeapStep *path = NULL;
  guint32 t = bl_heap_add_type (heap, "T");
  guint32 f = bl_heap_intern_field (heap, "f");
  guint32 g = bl_heap_intern_field (heap, "g");
  guint32 o[4];
  guint n;

  for (guint i = 0; i < 4; i++)
    o[i] = bl_heap_add_object (heap, t, 1);
  /* roots 0 and 1 both reference 2 (f, g); 2 → 3 */
  bl_heap_add_reference (heap, o[0], f, o[2]);
  bl_heap_add_reference (heap, o[1], g, o[2]);
  bl_heap_add_reference (heap, o[2], f, o[3]);
  bl_heap_add_root (heap, o[0]);
  bl_heap_add_root (heap, o[1]);
  bl_heap_finish (heap);

  g_assert_true (bl_heap_is_root (heap, o[0]));
  g_assert_true (bl_heap_is_root (heap, o[1]));
  g_assert_false (bl_heap_is_root (heap, o[2]));
  g_assert_false (bl_heap_is_root (heap, o[3]));
  g_assert_false (bl_heap_is_root (heap, 4));
  g_assert_cmpuint (bl_heap_get_idom (heap, o[2]), ==, BL_HEAP_NONE);

  index = bl_heap_index_new (heap, NULL, NULL);
  path = bl_heap_index_dup_retainer_path (index, o[3], &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (path[0].object, ==, o[0]);
  g_assert_cmpuint (path[0].field, ==, BL_HEAP_NONE);
  g_assert_cmpuint (path[1].object, ==, o[2]);
  g_assert_cmpuint (path[1].field, ==, f);
  g_assert_cmpuint (path[2].object, ==, o[3]);
}

static void
test_types (void)
{
  guint32 o[7];
  g_autoptr (BlHeap) heap = make_heap (o);
  g_autoptr (BlHeapIndex) index = bl_heap_index_new (heap, NULL, NULL);
  const guint32 *types;

  /* Node retains everything reachable (71), Leaf 24; Unused has no objects */
  g_assert_cmpuint (bl_heap_index_get_types (index, &types), ==, 2);
  g_assert_cmpstr (bl_heap_get_type_name (heap, types[0]), ==, "Node");
  g_assert_cmpstr (bl_heap_get_type_name (heap, types[1]), ==, "Leaf");
}

static void
test_cancelled (void)
{
  guint32 o[7];
  g_autoptr (BlHeap) heap = make_heap (o);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();

  g_cancellable_cancel (cancellable);
  g_assert_null (bl_heap_index_new (heap, cancellable, NULL));
  g_assert_null (bl_heap_find_new_objects (heap, heap, cancellable));
  /* cancelled before the analysis ended: none kept */
  g_assert_false (bl_heap_is_analysed (heap));
}

/* the index of a heap not analysed yet analyses it first, the progress
 * going through both to 1000 per mille; the analysis alone reports within
 * the range it is given, at once when it was done already */
static void
test_progress (void)
{
  guint32 o[7];
  g_autoptr (BlHeap) heap = make_heap (o);
  g_autoptr (BlHeap) other = make_heap (o);
  g_autoptr (BlHeapIndex) index = NULL;
  int progress = -1;

  g_assert_false (bl_heap_is_analysed (heap));
  index = bl_heap_index_new (heap, NULL, &progress);
  g_assert_nonnull (index);
  g_assert_true (bl_heap_is_analysed (heap));
  g_assert_cmpint (progress, ==, 1000);

  progress = -1;
  g_assert_true (bl_heap_analyse_with_progress (other, NULL, &progress, 100, 600));
  g_assert_cmpint (progress, ==, 600);
  progress = -1;
  g_assert_true (bl_heap_analyse_with_progress (other, NULL, &progress, 0, 300));
  g_assert_cmpint (progress, ==, 300);
}

/* A: 3 Str (30 bytes), 1 Map (10); B: 1 Str (10), 3 Map (30), 2 List (12);
 * B keeps A's ids 1 and 2 and adds new ones */
static void
compare_heaps (BlHeap **a_out,
               BlHeap **b_out)
{
  BlHeap *a = bl_heap_new ();
  BlHeap *b = bl_heap_new ();
  guint32 str_a = bl_heap_add_type (a, "Str");
  guint32 map_a = bl_heap_add_type (a, "Map");
  guint32 map_b = bl_heap_add_type (b, "Map");
  guint32 str_b = bl_heap_add_type (b, "Str");
  guint32 list_b = bl_heap_add_type (b, "List");
  guint32 f = bl_heap_intern_field (b, "item");

  for (guint i = 0; i < 3; i++)
    bl_heap_set_object_id (a, bl_heap_add_object (a, str_a, 10), 1 + i);
  bl_heap_set_object_id (a, bl_heap_add_object (a, map_a, 10), 4);
  bl_heap_add_root (a, 0);
  bl_heap_finish (a);

  bl_heap_set_object_id (b, bl_heap_add_object (b, str_b, 10), 1);   /* 0: kept */
  bl_heap_set_object_id (b, bl_heap_add_object (b, map_b, 10), 2);   /* 1: kept (was a Str) */
  bl_heap_set_object_id (b, bl_heap_add_object (b, map_b, 10), 50);  /* 2 */
  bl_heap_set_object_id (b, bl_heap_add_object (b, map_b, 10), 51);  /* 3 */
  bl_heap_set_object_id (b, bl_heap_add_object (b, list_b, 2), 52);  /* 4 */
  bl_heap_set_object_id (b, bl_heap_add_object (b, list_b, 10), 53); /* 5 */
  bl_heap_add_reference (b, 2, f, 4);
  bl_heap_add_reference (b, 3, f, 5);
  for (guint32 i = 0; i < 4; i++)
    bl_heap_add_root (b, i);
  bl_heap_finish (b);

  *a_out = a;
  *b_out = b;
}

static void
test_compare_types (void)
{
  g_autoptr (BlHeap) a = NULL;
  g_autoptr (BlHeap) b = NULL;
  g_autofree BlHeapTypeDelta *rows = NULL;
  guint n;

  compare_heaps (&a, &b);
  rows = bl_heap_compare_types (a, b, &n);

  /* grown first: Map +20, List +12, Str −20 */
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (rows[0].name, ==, "Map");
  g_assert_cmpuint (rows[0].count[0], ==, 1);
  g_assert_cmpuint (rows[0].count[1], ==, 3);
  g_assert_cmpuint (rows[0].bytes[0], ==, 10);
  g_assert_cmpuint (rows[0].bytes[1], ==, 30);
  g_assert_cmpstr (rows[1].name, ==, "List");
  g_assert_cmpuint (rows[1].count[0], ==, 0);
  g_assert_cmpuint (rows[1].bytes[1], ==, 12);
  g_assert_cmpstr (rows[2].name, ==, "Str");
  g_assert_cmpuint (rows[2].count[0], ==, 3);
  g_assert_cmpuint (rows[2].count[1], ==, 1);
}

/* ties as brightlens-cli heap A B breaks them: bytes delta, then count
 * delta, then the name; a type only in A is there with zeros for B */
static void
test_compare_ties (void)
{
  g_autoptr (BlHeap) a = bl_heap_new ();
  g_autoptr (BlHeap) b = bl_heap_new ();
  g_autofree BlHeapTypeDelta *rows = NULL;
  const char *names[] = { "Many", "Beta", "Zed", "Gone" };
  guint n;

  /* A: Gone 1 × 8; B: Beta 1 × 8, Zed 1 × 8, Many 2 × 4 */
  bl_heap_add_object (a, bl_heap_add_type (a, "Gone"), 8);
  bl_heap_add_root (a, 0);
  bl_heap_finish (a);
  bl_heap_add_object (b, bl_heap_add_type (b, "Zed"), 8);
  bl_heap_add_object (b, bl_heap_add_type (b, "Beta"), 8);
  bl_heap_add_type (b, "Many");
  bl_heap_add_object (b, 2, 4);
  bl_heap_add_object (b, 2, 4);
  bl_heap_add_root (b, 0);
  bl_heap_finish (b);

  rows = bl_heap_compare_types (a, b, &n);
  g_assert_cmpuint (n, ==, 4);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (rows[i].name, ==, names[i]);
  g_assert_cmpuint (rows[3].count[0], ==, 1);
  g_assert_cmpuint (rows[3].count[1], ==, 0);
  g_assert_cmpuint (rows[3].bytes[1], ==, 0);
}

static void
test_new_objects (void)
{
  g_autoptr (BlHeap) a = NULL;
  g_autoptr (BlHeap) b = NULL;
  g_autoptr (BlHeapNewObjects) fresh = NULL;

  compare_heaps (&a, &b);
  fresh = bl_heap_find_new_objects (a, b, NULL);

  /* Map: objects 2 and 3 (20 bytes); List: 4 and 5 (12 bytes) */
  g_assert_cmpuint (fresh->n_objects, ==, 4);
  g_assert_cmpuint (fresh->n_groups, ==, 2);
  g_assert_cmpstr (bl_heap_get_type_name (b, fresh->groups[0].type), ==, "Map");
  g_assert_cmpuint (fresh->groups[0].n_objects, ==, 2);
  g_assert_cmpuint (fresh->groups[0].bytes, ==, 20);
  g_assert_cmpuint (fresh->groups[0].first, ==, 0);
  /* largest retained first: 3 retains 20, 2 retains 12 */
  g_assert_cmpuint (fresh->objects[0], ==, 3);
  g_assert_cmpuint (fresh->objects[1], ==, 2);
  g_assert_cmpstr (bl_heap_get_type_name (b, fresh->groups[1].type), ==, "List");
  g_assert_cmpuint (fresh->groups[1].first, ==, 2);
  g_assert_cmpuint (fresh->objects[2], ==, 5);
  g_assert_cmpuint (fresh->objects[3], ==, 4);

  /* a heap against itself: nothing new */
  g_clear_pointer (&fresh, bl_heap_new_objects_free);
  fresh = bl_heap_find_new_objects (b, b, NULL);
  g_assert_cmpuint (fresh->n_objects, ==, 0);
  g_assert_cmpuint (fresh->n_groups, ==, 0);
}

/* a million objects in a chain: no recursion, the path is the chain */
static void
test_big (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  g_autoptr (BlHeapIndex) index = NULL;
  g_autofree BlHeapStep *path = NULL;
  guint32 t = bl_heap_add_type (heap, "Link");
  guint32 f = bl_heap_intern_field (heap, "next");
  const guint32 n = 1000000;
  const guint32 *children;
  guint n_steps;

  for (guint32 i = 0; i < n; i++)
    bl_heap_add_object (heap, t, 1);
  for (guint32 i = 0; i + 1 < n; i++)
    bl_heap_add_reference (heap, i, f, i + 1);
  bl_heap_add_root (heap, 0);
  bl_heap_finish (heap);

  index = bl_heap_index_new (heap, NULL, NULL);
  g_assert_cmpuint (bl_heap_index_get_children (index, n / 2, &children), ==, 1);
  g_assert_cmpuint (children[0], ==, n / 2 + 1);
  path = bl_heap_index_dup_retainer_path (index, n - 1, &n_steps);
  g_assert_cmpuint (n_steps, ==, n);
  g_assert_cmpuint (path[0].object, ==, 0);
  g_assert_cmpuint (path[n - 1].object, ==, n - 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/heap-index/children", test_children);
  g_test_add_func ("/heap-index/retainers", test_retainers);
  g_test_add_func ("/heap-index/retainer-path", test_retainer_path);
  g_test_add_func ("/heap-index/retainer-path-shortest", test_retainer_path_shortest);
  g_test_add_func ("/heap-index/retainer-path-real-root", test_retainer_path_real_root);
  g_test_add_func ("/heap-index/types", test_types);
  g_test_add_func ("/heap-index/cancelled", test_cancelled);
  g_test_add_func ("/heap-index/progress", test_progress);
  g_test_add_func ("/heap-index/compare-types", test_compare_types);
  g_test_add_func ("/heap-index/compare-ties", test_compare_ties);
  g_test_add_func ("/heap-index/new-objects", test_new_objects);
  g_test_add_func ("/heap-index/big", test_big);

  return g_test_run ();
}
